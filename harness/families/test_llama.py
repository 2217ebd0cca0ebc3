"""Llama, end to end: the family the standard vocabulary is taken from."""

from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

from nnterp.families import llama


class TestLlama(FamilySuite):
    CHECKPOINT = "llama"
    FAMILY = llama
    NATIVE = LLAMA_ROWS

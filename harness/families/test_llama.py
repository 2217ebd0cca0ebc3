"""Llama, end to end: the family the standard vocabulary is taken from."""

from nnterp.families import llama
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite


class TestLlama(FamilySuite):
    CHECKPOINT = "llama"
    FAMILY = llama
    NATIVE = LLAMA_ROWS

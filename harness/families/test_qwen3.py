"""Qwen3, end to end: Llama's block with per-head query/key norms."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("qwen3")


class TestQwen3(FamilySuite):
    CHECKPOINT = "qwen3"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

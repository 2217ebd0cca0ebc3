"""Ministral 3, end to end: Llama 4's position-dependent query scale."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("ministral3")


class TestMinistral3(FamilySuite):
    CHECKPOINT = "ministral3"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

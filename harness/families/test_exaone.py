"""EXAONE 3, end to end: Llama's modules under EXAONE's config."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("exaone")


class TestExaone(FamilySuite):
    CHECKPOINT = "exaone"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

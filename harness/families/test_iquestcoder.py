"""IQuest-Coder, end to end: Llama's modules under its own config."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("iquestcoder")


class TestIquestcoder(FamilySuite):
    CHECKPOINT = "iquestcoder"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

"""CWM, end to end: sliding-window and full-attention blocks."""

from nnterp_harness.release import family
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("cwm")


class TestCwm(FamilySuite):
    CHECKS = (SlidingWindowChecks,)
    CHECKPOINT = "cwm"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

"""LFM2 (`Lfm2ForCausalLM`), end to end: a short-convolution block, then an attention block."""

from nnterp_harness.release import family
from nnterp_harness.short_convolution import LFM2_ROWS, WINDOW_UNAVAILABLE
from nnterp_harness.suite import FamilySuite

FAMILY = family("lfm2")


class TestLfm2(FamilySuite):
    CHECKPOINT = "lfm2"
    FAMILY = FAMILY
    NATIVE = LFM2_ROWS
    EXPECTED_UNAVAILABLE = WINDOW_UNAVAILABLE

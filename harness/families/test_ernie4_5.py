"""ERNIE 4.5, end to end: Llama's block with biases and an interleaved rotary embedding."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("ernie4_5")


class TestErnie45(FamilySuite):
    CHECKPOINT = "ernie4_5"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

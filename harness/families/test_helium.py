"""Helium, end to end: Llama's block with an interleaved rotary embedding."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("helium")


class TestHelium(FamilySuite):
    CHECKPOINT = "helium"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

"""Mistral, end to end: Llama's block with a sliding window shorter than the prompt."""

from nnterp_harness.release import family
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("mistral")


class TestMistral(FamilySuite):
    CHECKS = (SlidingWindowChecks,)
    CHECKPOINT = "mistral"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

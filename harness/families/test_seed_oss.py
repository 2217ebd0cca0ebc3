"""Seed-OSS, end to end: Llama's block with biased projections."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("seed_oss")


class TestSeedOss(FamilySuite):
    CHECKPOINT = "seed_oss"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

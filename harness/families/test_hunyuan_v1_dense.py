"""Hunyuan dense, end to end: Llama's block with per-head query/key norms."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("hunyuan_v1_dense")


class TestHunyuanV1Dense(FamilySuite):
    CHECKPOINT = "hunyuan_v1_dense"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

"""LFM2-MoE (`Lfm2MoeForCausalLM`), end to end: a dense short-convolution block, then mixture blocks of both kinds."""

from nnterp_harness.release import family
from nnterp_harness.short_convolution import LFM2_ROWS, WINDOW_UNAVAILABLE
from nnterp_harness.suite import NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite

FAMILY = family("lfm2_moe")


class TestLfm2Moe(FamilySuite):
    CHECKPOINT = "lfm2_moe"
    FAMILY = FAMILY
    NATIVE = LFM2_ROWS
    EXPECTED_UNAVAILABLE = {**WINDOW_UNAVAILABLE, **ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}

"""MiniMax-M2 (`MiniMaxM2ForCausalLM`), end to end: a sigmoid-scored mixture."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite

FAMILY = family("minimax_m2")


class TestMinimaxM2(FamilySuite):
    CHECKPOINT = "minimax_m2"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}

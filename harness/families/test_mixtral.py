"""Mixtral (`MixtralForCausalLM`), end to end: a softmax-scored mixture."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite

FAMILY = family("mixtral")


class TestMixtral(FamilySuite):
    CHECKPOINT = "mixtral"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}

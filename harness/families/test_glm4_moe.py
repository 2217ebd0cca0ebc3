"""GLM-4-MoE (`Glm4MoeForCausalLM`), end to end: a sigmoid-scored mixture with shared experts."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite

FAMILY = family("glm4_moe")


class TestGlm4Moe(FamilySuite):
    CHECKPOINT = "glm4_moe"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

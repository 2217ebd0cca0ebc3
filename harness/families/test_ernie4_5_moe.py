"""ERNIE 4.5 MoE, end to end: a dense block, then a softmax mixture whose shared experts run before the router."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite

FAMILY = family("ernie4_5_moe")


class TestErnie4_5Moe(FamilySuite):
    CHECKPOINT = "ernie4_5_moe"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

    def test_shared_experts_come_before_the_router(self, model):
        index = next(i for i, layer in enumerate(model.layers) if isinstance(layer.mlp, FAMILY.Moe))
        order = model.order(index)
        assert order["mlp.shared_expert_output"] < order["mlp.router_logits"] < order["mlp.routed_output"]

"""Hunyuan MoE, end to end: per-head query/key norms, a softmax mixture and an ungated shared expert run first."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("hunyuan_v1_moe")


class TestHunyuanV1Moe(FamilySuite):
    CHECKPOINT = "hunyuan_v1_moe"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)

    def test_weights_are_the_renormalized_softmax_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[0].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.softmax(logits.float(), dim=-1).gather(-1, indices)
        assert torch.allclose(weights, scores / scores.sum(-1, keepdim=True), atol=1e-6)

    def test_the_shared_expert_runs_before_the_router(self, model):
        order = model.order(layer=0)
        assert order["mlp.shared_expert_output"] < order["mlp.router_logits"]

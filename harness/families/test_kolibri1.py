"""Kolibri 1, end to end: sandwich norms, query/key norms, sliding and full blocks, a sigmoid mixture with shared experts."""

import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("kolibri1")


class TestKolibri1(FamilySuite):
    CHECKS = (SlidingWindowChecks,)
    CHECKPOINT = "kolibri1"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    MLP_WIDTH_KEY = "moe_intermediate_size"

    def test_the_contributions_are_the_post_norms(self, model):
        def body(m):
            block = m.layers[0]
            return (
                block.post_self_attn_layernorm.output,
                block.self_attn.attention_output,
                block.mlp.output,
                block.post_mlp_layernorm.input,
                block.post_mlp_layernorm.output,
                block.mlp.mlp_output,
            )

        attn_norm, attn, mixture, mlp_in, mlp_norm, mlp = run(model, body)
        assert torch.equal(attn, attn_norm)
        assert torch.equal(mixture, mlp_in)
        assert torch.equal(mlp, mlp_norm)

    def test_weights_are_the_sigmoid_of_the_chosen_logits(self, model):
        def body(m):
            mixture = m.layers[0].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        expected = torch.sigmoid(logits.gather(-1, indices))
        if model.config.norm_topk_prob:
            expected = expected / expected.sum(-1, keepdim=True)
        assert torch.allclose(weights, expected, atol=1e-6)

"""EXAONE-MoE, end to end: query/key norms, a dense sliding block, then a grouped sigmoid mixture with a shared expert."""

import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("exaone_moe")


class TestExaoneMoe(FamilySuite):
    CHECKS = (SlidingWindowChecks,)
    CHECKPOINT = "exaone_moe"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    MLP_WIDTH_KEY = "intermediate_size"

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, FAMILY.Moe)
        assert isinstance(model.layers[1].mlp, FAMILY.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}
        assert model.support(layer=1)["mlp.router_logits"] is None

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = scores / (scores.sum(-1, keepdim=True) + 1e-20) * model.config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)

    def test_the_full_attention_block_applies_no_rotary_embedding(self, model):
        assert model.config.layer_types[1] == "full_attention"

        def body(m):
            a = m.layers[1].self_attn
            return a.k_norm.output, a.attention_keys

        normed, keys = run(model, body)
        assert torch.equal(keys, normed)

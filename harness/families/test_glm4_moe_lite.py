"""GLM-4.7-Flash, end to end: latent attention, a dense first block, then a grouped sigmoid mixture with shared experts."""

import torch

from nnterp.components import Mlp
from nnterp.families import deepseek_v3
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("glm4_moe_lite")


class TestGlm4MoeLite(FamilySuite):
    CHECKPOINT = "glm4_moe_lite"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (Mlp,)
    MLP_WIDTH_KEY = "intermediate_size"
    REFUSES_IN_PLACE = ("attention_values",)

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, deepseek_v3.Moe)
        assert isinstance(model.layers[1].mlp, deepseek_v3.Moe)
        support = model.support()
        assert support["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}
        assert model.support(layer=0)["mlp.router_logits"] == "the mlp on this block has no router_logits"
        assert model.support(layer=1)["mlp.router_logits"] is None

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = scores / (scores.sum(-1, keepdim=True) + 1e-20) * model.config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)

    def test_latent_attention_sizes(self, model):
        attn = model.layers[0].self_attn
        config = model.config
        assert attn.qk_head_dim == config.qk_nope_head_dim + config.qk_rope_head_dim
        assert attn.head_dim == config.v_head_dim
        assert attn.num_kv_heads == attn.num_heads == config.num_attention_heads

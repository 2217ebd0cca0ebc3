"""Sarvam-MoE (`sarvam_moe`, built as `Glm4MoeForCausalLM`), end to end: query and key norms, a dense first
block, then a grouped sigmoid mixture with shared experts."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("sarvam_moe")


class TestSarvamMoe(FamilySuite):
    CHECKPOINT = "sarvam_moe"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

    def test_the_config_type_builds_glm4_moe(self, model):
        assert model.config.model_type == "sarvam_moe"
        assert type(model._module).__name__ == "Glm4MoeForCausalLM"

    def test_first_block_is_dense(self, model):
        assert model.support(layer=1)["mlp.router_logits"] is None
        assert model.support(layer=0)["mlp.router_logits"] == "the mlp on this block has no router_logits"

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = scores / scores.sum(-1, keepdim=True) * model.config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)

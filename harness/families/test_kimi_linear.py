"""Kimi-Linear (`KimiLinearForCausalLM`), end to end: a Kimi delta attention block, then a latent attention block
with a grouped mixture."""

import torch

from nnterp_harness.recurrent import ROUTING_NEEDED
from nnterp_harness.release import family
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows, run

FAMILY = family("kimi_linear")


class TestKimiLinear(FamilySuite):
    CHECKPOINT = "kimi_linear"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", attn=None)
    EXPECTED_UNAVAILABLE = {**ROUTING_NEEDED, **ROUTED_EXPERTS, "mlp.expert_outputs": "their own loop"}
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    MLP_WIDTH_KEY = "intermediate_size"
    MOE_UNAVAILABLE = {"expert_outputs": "their own loop"}
    REFUSES_IN_PLACE = ("attention_values",)

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = scores / scores.sum(-1, keepdim=True) * model.config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)

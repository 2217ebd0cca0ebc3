"""The Ling hybrid (`BailingHybridForCausalLM`), end to end: a Kimi delta attention block, then a gated latent
attention block with a grouped mixture."""

import torch

from nnterp.components import Mlp
from nnterp_harness.recurrent import ROUTING_NEEDED
from nnterp_harness.release import family
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows, run

FAMILY = family("bailing_hybrid")


class TestBailingHybrid(FamilySuite):
    CHECKPOINT = "bailing_hybrid"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", attn=None)
    EXPECTED_UNAVAILABLE = {**ROUTING_NEEDED, **ROUTED_EXPERTS}
    ROUTER_EXTRA_CLASSES = (Mlp,)
    MLP_WIDTH_KEY = "intermediate_size"
    REFUSES_IN_PLACE = ("attention_values",)
    PREMIX_IS_HEAD_OUTPUTS = False

    def test_decays_lie_within_the_safe_gates_bound(self, model):
        decays = run(model, lambda m: m.layers[0].linear_attn.decays)
        # The safe gate is kda_lower_bound times a sigmoid: every decay lies strictly between the bound and zero.
        assert model.config.kda_safe_gate
        assert bool(((decays > model.config.kda_lower_bound) & (decays < 0)).all())
        assert float(decays.min()) < model.config.kda_lower_bound / 10, "the decays bunch up at zero"

    def test_premix_is_the_gated_head_outputs(self, model):
        def body(m):
            attn = m.layers[1].self_attn
            return attn.attention_head_outputs, attn.g_proj.output, attn.attention_premix

        heads, gate, premix = run(model, body)
        assert torch.equal(premix, heads * torch.sigmoid(gate.float()).to(heads.dtype).unsqueeze(-1))

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = scores / scores.sum(-1, keepdim=True) * model.config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)

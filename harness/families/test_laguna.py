"""Laguna (`LagunaForCausalLM`), end to end: a head-gated attention, sliding-window blocks, a dense block and a
softcapped sigmoid mixture whose routed sum is scaled before the shared expert is added."""

import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("laguna")


class TestLaguna(FamilySuite):
    CHECKS = (SlidingWindowChecks,)
    CHECKPOINT = "laguna"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    PREMIX_IS_HEAD_OUTPUTS = False
    SCALE_KEY = "moe_routed_scaling_factor"
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

    def test_mlp_layer_types_decide_the_mixture_blocks(self, model):
        kinds = [isinstance(block.mlp, FAMILY.Moe) for block in model.layers]
        assert kinds == [kind == "sparse" for kind in model.config.mlp_layer_types] == [False, True]

    def test_weights_are_the_renormalized_sigmoid_scores_of_the_softcapped_logits(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        cap = model.config.moe_router_logit_softcapping
        assert cap > 0
        scores = torch.sigmoid(torch.tanh(logits.float() / cap) * cap)
        bias = model.layers[1].mlp.gate._module.e_score_correction_bias
        assert torch.equal(indices, (scores + bias).topk(2, dim=-1).indices)
        picked = scores.gather(-1, indices)
        assert torch.allclose(weights, picked / picked.sum(-1, keepdim=True), atol=1e-6)

    def test_the_gate_scales_each_head_before_the_output_projection(self, model):
        def body(m):
            attn = m.layers[0].self_attn
            return attn.attention_head_outputs, attn.g_proj.output, attn.attention_premix

        heads, gate, premix = run(model, body)
        expected = heads * torch.nn.functional.softplus(gate).unsqueeze(-1)
        assert torch.allclose(premix, expected, atol=1e-6)

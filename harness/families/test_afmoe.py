"""AFMoE, end to end: a sandwich block with a gated attention, a dense first block, then a biased sigmoid mixture."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("afmoe")


class TestAfmoe(FamilySuite):
    CHECKPOINT = "afmoe"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    MLP_NORM = "pre_feedforward_layernorm"
    PREMIX_IS_HEAD_OUTPUTS = False
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, FAMILY.Moe)
        assert isinstance(model.layers[1].mlp, FAMILY.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}

    def test_the_mixture_contribution_is_the_post_norm(self, model):
        def body(m):
            block = m.layers[1]
            return block.mlp.output, block.mlp.mlp_output, block.post_feedforward_layernorm.output

        returned, contribution, normed = run(model, body)
        assert torch.equal(contribution, normed) and not torch.equal(contribution, returned)

    def test_weights_are_the_scaled_renormalized_sigmoid_scores(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        bias = model.layers[1].mlp._module.expert_bias
        scores = torch.sigmoid(logits.float())
        chosen = (scores + bias).topk(2, dim=-1).indices
        assert torch.equal(indices.sort(-1).values, chosen.sort(-1).values)
        picked = scores.gather(-1, indices)
        expected = picked / picked.sum(-1, keepdim=True) * model.config.route_scale
        assert torch.allclose(weights, expected, atol=1e-6)

    def test_the_gate_scales_the_premix(self, model):
        def body(m):
            attn = m.layers[0].self_attn
            return attn.attention_head_outputs, attn.attention_premix

        heads, premix = run(model, body)
        gate = run(model, lambda m: m.layers[0].self_attn.gate_proj.output)
        assert torch.allclose(premix, heads * torch.sigmoid(gate).unflatten(-1, heads.shape[-2:]), atol=1e-6)

"""Beam (`BeamForCausalLM`), end to end: a sandwich block with depth-weighted adds, a gated attention, a dense
block and a grouped sigmoid mixture whose routed sum is scaled after the experts run."""

import torch

from nnterp.components.depth_scaled import ATTENTION_ADD, MLP_ADD, residual_weight
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run
from nnterp_harness.weighted_stream import WeightedStreamChecks

FAMILY = family("beam")


class TestBeam(FamilySuite):
    CHECKS = (WeightedStreamChecks,)
    CHECKPOINT = "beam"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    # Block 0 is dense (its mlp has no such value), block 1 a mixture without a shared expert.
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, "mlp.shared_expert_output": "no shared"}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}
    MLP_NORM = "pre_feedforward_layernorm"
    PREMIX_IS_HEAD_OUTPUTS = False

    def stream_term(self, block, sublayer, stream):
        return stream * residual_weight(block, ATTENTION_ADD if sublayer == "attention" else MLP_ADD)

    def test_contributions_are_the_depth_weighted_post_norms(self, model):
        def body(m):
            found = []
            for i in range(len(model.layers)):
                b = m.layers[i]
                found.append((b.post_attention_layernorm.output, b.self_attn.attention_output))
                found.append((b.post_feedforward_layernorm.output, b.mlp.mlp_output))
            return found

        adds = []
        for index in range(len(model.layers)):
            adds += [2 * (index + 1), 2 * (index + 1) + 1]
        for ordinal, (normed, contribution) in zip(adds, run(model, body)):
            assert torch.equal(contribution, normed * (1.0 / ordinal**0.5)), f"add {ordinal}"

    def test_mlp_layer_types_decide_the_mixture_blocks(self, model):
        kinds = [isinstance(block.mlp, FAMILY.Moe) for block in model.layers]
        assert kinds == [kind == "sparse" for kind in model.config.mlp_layer_types] == [False, True]

    def test_weights_are_the_renormalized_sigmoid_scores_of_the_kept_groups(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float())
        gate = model.layers[1].mlp.gate._module
        choice = (scores + gate.e_score_correction_bias).unflatten(-1, (gate.num_group, -1))
        kept = choice.topk(2, dim=-1).values.sum(-1).topk(gate.topk_group, dim=-1).indices
        mask = torch.zeros(choice.shape[:-1], dtype=torch.bool).scatter(-1, kept, True)
        choice = choice.masked_fill(~mask.unsqueeze(-1), float("-inf")).flatten(-2)
        assert torch.equal(indices, choice.topk(2, dim=-1).indices)
        assert bool((indices // (gate.num_experts // gate.num_group) == kept).all()), "one group is kept per token"
        picked = scores.gather(-1, indices)
        assert torch.allclose(weights, picked / picked.sum(-1, keepdim=True), atol=1e-6)

    def test_the_gate_scales_each_head_before_the_output_projection(self, model):
        def body(m):
            attn = m.layers[0].self_attn
            return attn.attention_head_outputs, attn.gate_proj.output, attn.attention_premix

        heads, gate, premix = run(model, body)
        bias = model.layers[0].self_attn._module.gate_bias
        expected = heads * torch.sigmoid(gate.unflatten(-1, heads.shape[-2:]) + bias[:, None])
        assert torch.allclose(premix, expected.flatten(-2).unflatten(-1, heads.shape[-2:]), atol=1e-6)

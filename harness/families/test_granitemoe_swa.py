"""Granite-MoE SWA, end to end: Granite SWA's sinks and windows in a block with a mixture and a shared MLP."""

import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("granitemoe_swa")


class TestGraniteMoeSwa(FamilySuite):
    CHECKS = (SlidingWindowChecks,)
    CHECKPOINT = "granitemoe_swa"
    FAMILY = FAMILY
    NATIVE = {**LLAMA_ROWS, "layers.0.mlp": "model.layers.0.block_sparse_moe"}
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)

    def mixture_sum(self, mixture):
        # The block adds the mixture's output and its shared MLP's before scaling the sum.
        return mixture.parent.source.hidden_states_4.output

    def test_mlp_output_is_the_scaled_sum_of_routed_and_shared(self, model):
        multiplier = model.config.residual_multiplier
        assert multiplier != 1.0

        def body(m):
            block = m.layers[1]
            return (
                block.mlp.routed_output,
                block.mlp.shared_expert_output,
                block.shared_mlp.output,
                block.mlp.mlp_output,
            )

        routed, shared, raw_shared, contribution = run(model, body)
        assert torch.equal(shared, raw_shared)
        assert torch.equal(contribution, (routed + shared) * multiplier)

    def test_the_sink_scales_each_querys_mix(self, model):
        attn = model.layers[0].self_attn
        groups = attn.num_heads // attn.num_kv_heads

        def body(m):
            a = m.layers[0].self_attn
            return a.attention_values, a.attention_scores, a.attention_probabilities, a.attention_head_outputs

        values, scores, pattern, heads = run(model, body)
        sinks = attn._module.sinks.detach()
        scale = (torch.logsumexp(scores, dim=-1) - sinks.view(1, -1, 1)).sigmoid()
        assert bool((scale < 1).all())
        mixed = pattern @ values.repeat_interleave(groups, dim=1)
        expected = (mixed * scale.unsqueeze(-1)).transpose(1, 2)
        assert torch.allclose(heads, expected, atol=1e-6)
        assert not torch.allclose(heads, mixed.transpose(1, 2), atol=1e-6)

    def test_a_zero_theta_block_applies_no_rotary_embedding(self, model):
        assert model.config.layer_rope_theta[1] == 0

        def body(m):
            a = m.layers[1].self_attn
            return a.q_proj.output, a.attention_queries

        projected, queries = run(model, body)
        assert torch.equal(queries, projected.unflatten(-1, (queries.shape[1], -1)).transpose(1, 2))

    def test_logits_are_the_head_divided_by_logits_scaling(self, model):
        head, logits = run(model, lambda m: (m.lm_head_output, m.logits))
        assert torch.equal(logits, head / model.config.logits_scaling)

"""Doge, end to end: per-channel stream gates before each add and a product-key mixture of single-neuron experts."""

import pytest
import torch

from nnterp_harness.entries.doge import mixture_unsupported
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run
from nnterp_harness.weighted_stream import WeightedStreamChecks

FAMILY = family("doge")

if reason := mixture_unsupported():
    pytest.skip(reason, allow_module_level=True)


class TestDoge(FamilySuite):
    CHECKS = (WeightedStreamChecks,)
    CHECKPOINT = "doge"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {
        **ROUTED_EXPERTS,
        "mlp.router_logits": "product-key routing",
        "mlp.expert_outputs": "sums the slots",
    }
    MOE_UNAVAILABLE = {"router_logits": "product-key routing", "expert_outputs": "sums the slots"}

    def stream_term(self, block, sublayer, stream):
        gate = block.input_residual if sublayer == "attention" else block.post_attention_residual
        return gate * stream

    def test_the_slots_are_the_chosen_product_key_experts(self, model):
        def body(m):
            mixture = m.layers[0].mlp
            return mixture.input, mixture.expert_indices, mixture.expert_weights, mixture.routed_output

        x, indices, weights, routed = run(model, body)
        module = model.layers[0].mlp._module
        down, up = module.down_embed.weight[indices], module.up_embed.weight[indices]
        activations = module.act_fn((down * x.unsqueeze(-2)).sum(-1)) * weights
        expected = (activations.unsqueeze(-1) * up).sum(-2)
        assert torch.allclose(routed, expected, atol=1e-5)
        assert torch.allclose(weights.sum(-1), torch.ones_like(weights[..., 0]), atol=1e-6)

    def test_interior_writes_are_causal(self, model, clean):
        # The router views its projection as two halves of the flattened tokens, so a token's routing reads a
        # later token's logits and the logits are not causal past the first mixture. The attention is: an edit
        # of the last query leaves every earlier position of its output and of the first mixture's input alone.
        def last_query(m):
            a = m.layers[0].self_attn
            queries = a.attention_queries.clone()
            queries[:, :, -1] = 0
            a.attention_queries = queries
            return a.attention_output, m.layers[0].mlp.input

        def unedited(m):
            return m.layers[0].self_attn.attention_output, m.layers[0].mlp.input

        for edited, clean_value in zip(run(model, last_query), run(model, unedited)):
            assert torch.equal(edited[:, :-1], clean_value[:, :-1]), (
                "an edit of the last query moved an earlier position"
            )
            assert not torch.equal(edited[:, -1], clean_value[:, -1]), (
                "an edit of the last query did not move its position"
            )

    def test_the_router_mixes_tokens(self, model):
        def body(m):
            a = m.layers[0].self_attn
            queries = a.attention_queries.clone()
            queries[:, :, -1] = 0
            a.attention_queries = queries
            return m.layers[0].mlp.expert_weights

        clean = self.read_one(model, "mlp.expert_weights", 0)
        edited = run(model, body)
        assert not torch.equal(edited[:, :-1], clean[:, :-1]), (
            "the router no longer mixes tokens: the override is stale"
        )

"""ZAYA (`ZayaForCausalLM`), end to end: a convolutional attention, a mixture with a skip class on every block, and
adds that gate the stream and the contribution per channel."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite, run
from nnterp_harness.weighted_stream import WeightedStreamChecks

FAMILY = family("zaya")


def add_module(block, sublayer):
    return block.post_attention_residual_scale if sublayer == "attention" else block.post_mlp_residual_scale


class TestZaya(FamilySuite):
    CHECKS = (WeightedStreamChecks,)
    CHECKPOINT = "zaya"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}

    def stream_term(self, block, sublayer, stream):
        add = add_module(block, sublayer)
        return (stream + add.residual_bias) * add.residual_scale

    def test_contributions_are_the_gated_sublayer_outputs(self, model):
        def body(m):
            b = m.layers[1]
            return b.self_attn.output[0], b.self_attn.attention_output, b.mlp.output[0], b.mlp.mlp_output

        attn, attn_added, mlp, mlp_added = run(model, body)
        block = model.layers[1]._module
        for sublayer, raw, added in (("attention", attn, attn_added), ("mlp", mlp, mlp_added)):
            add = add_module(block, sublayer)
            assert torch.equal(added, (raw + add.hidden_states_bias) * add.hidden_states_scale)
            assert not torch.equal(added, raw)

    def test_the_skip_class_is_the_last_logit_and_never_chosen(self, model):
        logits, indices = run(model, lambda m: (m.layers[1].mlp.router_logits, m.layers[1].mlp.expert_indices))
        assert model.layers[1].mlp.num_experts == model.config.num_experts + 1 == logits.shape[-1]
        # A probability is at most one, and the load sets the skip class's bias to -1: it never wins the top-k.
        assert float(model.layers[1].mlp.gate._module.balancing_biases[-1]) == -1.0
        assert bool((indices < model.config.num_experts).all())

    def test_weights_are_the_softmax_probabilities(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        probs = torch.softmax(logits, dim=-1)
        biases = model.layers[1].mlp.gate._module.balancing_biases
        assert torch.equal(indices, (probs + biases).topk(1, dim=-1).indices)
        assert torch.allclose(weights, probs.gather(-1, indices), atol=1e-6)

"""Jamba (`JambaForCausalLM`), end to end: a Mamba-1 block with a mixture, then an attention block with a dense MLP."""

import torch

from nnterp_harness.recurrent import ROUTING_NEEDED
from nnterp_harness.release import family
from nnterp_harness.suite import NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite, rows, run

FAMILY = family("jamba")


class TestJamba(FamilySuite):
    CHECKPOINT = "jamba"
    FAMILY = FAMILY
    NATIVE = rows(
        "model", "layers", "embed_tokens", "final_layernorm", attn=None, ln2="pre_ff_layernorm", mlp="feed_forward"
    )
    EXPECTED_UNAVAILABLE = {**ROUTING_NEEDED, **ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}

    def test_block_kinds_follow_the_periods(self, model):
        assert model.config.layers_block_type == ["mamba", "attention"]
        assert isinstance(model.layers[0].linear_attn, FAMILY.SelectiveScan)
        assert isinstance(model.layers[1].self_attn, FAMILY.Attention)
        assert isinstance(model.layers[0].mlp, FAMILY.Moe)
        assert type(model.layers[1].mlp) is FAMILY.Mlp
        assert model.support(layer=1)["mlp.mlp_neurons"] is None

    def test_weights_are_the_unnormalized_softmax_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[0].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        expected = torch.softmax(logits.float(), dim=-1).gather(-1, indices)
        assert torch.allclose(weights, expected, atol=1e-6)
        assert bool((weights.sum(-1) < 1).all()), "the chosen weights were renormalized"

"""DBRX, end to end: the attention and its norms one module down in `norm_attn_norm`, and an own-loop mixture."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite, rows, run

FAMILY = family("dbrx")


class TestDbrx(FamilySuite):
    CHECKPOINT = "dbrx"
    FAMILY = FAMILY
    NATIVE = rows(
        "transformer",
        "blocks",
        "wte",
        "norm_f",
        attn="norm_attn_norm.attn",
        ln1="norm_attn_norm.norm_1",
        ln2="norm_attn_norm.norm_2",
        mlp="ffn",
    )
    EXPECTED_UNAVAILABLE = {
        **ROUTED_EXPERTS,
        **NO_SHARED_EXPERT,
        "mlp.expert_outputs": "their own loop",
    }
    MOE_UNAVAILABLE = {
        "shared_expert_output": "this mixture has no shared expert",
        "expert_outputs": "their own loop",
    }

    def test_the_nested_attention_is_the_blocks_self_attn(self, model):
        block = model.layers[0]
        assert block.self_attn is block.norm_attn_norm.attn
        assert "self_attn.attention_scores" in model.support()

    def test_weights_are_the_chosen_softmax_scores_renormalized(self, model):
        def body(m):
            mixture = m.layers[0].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        chosen = torch.softmax(logits, dim=-1).gather(-1, indices)
        p = model.config.ffn_config.moe_normalize_expert_weights
        assert torch.allclose(weights, chosen / chosen.norm(p=p, dim=-1, keepdim=True), atol=1e-6)

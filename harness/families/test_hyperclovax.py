"""HyperCLOVA X, end to end: post-normed contributions scaled by the block, and scaled logits."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

FAMILY = family("hyperclovax")


class TestHyperCLOVAX(FamilySuite):
    CHECKPOINT = "hyperclovax"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

    def test_the_contributions_are_the_scaled_post_norms(self, model):
        def body(m):
            block = m.layers[0]
            return (
                block.post_norm1.output,
                block.self_attn.attention_output,
                block.post_norm2.output,
                block.mlp.mlp_output,
            )

        attn_norm, attn, mlp_norm, mlp = run(model, body)
        multiplier = model.config.residual_multiplier
        assert multiplier != 1.0
        assert torch.equal(attn, attn_norm * multiplier)
        assert torch.equal(mlp, mlp_norm * multiplier)

    def test_an_assigned_contribution_is_what_the_block_adds(self, model):
        def body(m):
            block = m.layers[0]
            x = block.layer_input
            block.self_attn.attention_output = torch.zeros_like(x)
            return x, block.layer_mid

        x, mid = run(model, body)
        assert torch.equal(mid, x)

    def test_logits_are_the_scaled_head(self, model):
        head, logits = run(model, lambda m: (m.lm_head_output, m.logits))
        assert torch.equal(logits, head * model.config.logits_scaling)

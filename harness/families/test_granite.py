"""Granite, end to end: scaled contributions, a scaled embedding and a scaled head."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

FAMILY = family("granite")


class TestGranite(FamilySuite):
    CHECKPOINT = "granite"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

    def test_the_contributions_are_the_scaled_outputs(self, model):
        multiplier = model.config.residual_multiplier
        assert multiplier != 1.0

        def body(m):
            block = m.layers[0]
            return (
                block.self_attn.output[0],
                block.self_attn.attention_output,
                block.mlp.output,
                block.mlp.mlp_output,
            )

        attn_raw, attn, mlp_raw, mlp = run(model, body)
        assert torch.equal(attn, attn_raw * multiplier)
        assert torch.equal(mlp, mlp_raw * multiplier)

    def test_the_embedding_multiplier_sits_between_the_lookup_and_block_0(self, model):
        multiplier = model.config.embedding_multiplier
        assert multiplier != 1.0
        lookup, entering = run(model, lambda m: (m.token_embeddings, m.layers[0].layer_input))
        assert torch.equal(entering, lookup * multiplier)

    def test_logits_are_the_head_divided_by_logits_scaling(self, model):
        scaling = model.config.logits_scaling
        assert scaling != 1.0
        head, logits = run(model, lambda m: (m.lm_head_output, m.logits))
        assert torch.equal(logits, head / scaling)

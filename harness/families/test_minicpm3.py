"""MiniCPM3, end to end: latent attention, contributions scaled by the block, logits scaled before the head."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

FAMILY = family("minicpm3")


class TestMiniCPM3(FamilySuite):
    CHECKPOINT = "minicpm3"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    KV_HEADS_EXPANDED = True
    # The values are a slice of the decompressed latent, which torch refuses to edit in place.
    REFUSES_IN_PLACE = ("attention_values",)

    def test_the_contributions_are_scaled(self, model):
        def body(m):
            block = m.layers[0]
            return block.self_attn.output, block.self_attn.attention_output, block.mlp.output, block.mlp.mlp_output

        attn_module, attn, mlp_module, mlp = run(model, body)
        scale = model.layers[0]._module.residual_scale
        assert scale != 1.0
        assert torch.equal(attn, attn_module[0] * scale)
        assert torch.equal(mlp, mlp_module * scale)

    def test_latent_attention_sizes(self, model):
        attn = model.layers[0].self_attn
        assert (attn.head_dim, attn.qk_head_dim, attn.num_kv_heads) == (24, 16, 4)
        assert (model.head_dim, model.qk_head_dim) == (24, 16)
        queries, values = run(
            model, lambda m: (m.layers[0].self_attn.attention_queries, m.layers[0].self_attn.attention_values)
        )
        assert queries.shape[-1] == 16 and values.shape[-1] == 24

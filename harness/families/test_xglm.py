"""XGLM, end to end: an inline feed-forward path and an attention that folds the heads into the batch."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import PROMPT, FamilySuite, rows

FAMILY = family("xglm")


class TestXGLM(FamilySuite):
    CHECKPOINT = "xglm"
    FAMILY = FAMILY
    NATIVE = rows(
        "model", "layers", "embed_tokens", "layer_norm", ln1="self_attn_layer_norm", ln2="final_layer_norm", mlp=None
    )
    EXPECTED_UNAVAILABLE = {"mlp_input": "no mlp module"}
    MLP_WIDTH_KEY = "ffn_dim"

    def test_the_feed_forward_contribution_is_fc2s_output(self, model):
        block = model.layers[0]
        found = []
        with model.trace(PROMPT):
            found.append(block.mlp_norm_output.save())
            found.append(block.fc1.input.save())
            found.append(block.mlp_output.save())
            found.append(block.fc2.output.save())
        normed, fc1_in, contribution, fc2_out = found
        assert torch.equal(normed, fc1_in) and torch.equal(contribution, fc2_out)

    def test_the_queries_enter_the_product_scaled(self, model):
        attention = model.layers[0].self_attn
        found = []
        with model.trace(PROMPT):
            found.append(attention.q_proj.output.save())
            found.append(attention.attention_queries.save())
        projected, queries = found
        heads = projected.unflatten(-1, (attention.num_heads, -1)).transpose(1, 2)
        assert torch.equal(queries, heads * attention.head_dim**-0.5)

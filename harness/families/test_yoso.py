"""YOSO (`yoso`), end to end: BERT's blocks around an attention by expected hash collisions, with no pattern."""

import math

import torch

from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness.encoder import MASKED_BATCH
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("yoso")


class TestYoso(FamilySuite):
    CHECKPOINT = "yoso"
    FAMILY = FAMILY
    NATIVE = rows(
        "yoso",
        "encoder.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.self_output.LayerNorm",
        head="cls",
    )
    EXPECTED_UNAVAILABLE = {
        **POST_LN_UNAVAILABLE,
        "self_attn.attention_scores": "not by a softmax",
        "self_attn.attention_probabilities": "not by a softmax",
    }
    OUTPUT_NORM = OUTPUT_NORM
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.predictions.decoder"

    def test_head_outputs_are_the_expected_collision_mix(self, model):
        # Each head mixes its values by (1 - arccos(q·k) / pi) ** hash_code_len over normalized queries and keys,
        # normalizes the mix, and adds the depthwise convolution of its values.
        def body(m):
            attn = m.layers[0].self_attn
            # The values are split into heads before the normalized queries and keys enter the function.
            return attn.attention_values, attn.attention_queries, attn.attention_keys, attn.attention_head_outputs

        values, queries, keys, heads = run(model, body)
        norms = queries.norm(dim=-1)
        assert torch.allclose(norms, torch.ones_like(norms), atol=1e-5), "the queries are not normalized"
        inner = model._module.yoso.encoder.layer[0].attention.self
        weights = (1 - torch.acos(queries @ keys.transpose(-1, -2)) / math.pi) ** inner.hash_code_len
        mixed = torch.nn.functional.normalize(weights @ values, dim=-1)
        with torch.no_grad():
            expected = (mixed + inner.conv(values)).transpose(1, 2)
        assert torch.allclose(heads, expected, atol=1e-5)
        assert not torch.allclose(heads, mixed.transpose(1, 2), atol=1e-4), "the convolution added nothing"

    def test_no_pattern_is_served(self, model):
        support = model.support(layer=0)
        for key in ("self_attn.attention_scores", "self_attn.attention_probabilities"):
            assert "custom autograd function" in support[key], support[key]

    def test_padded_keys_are_weighed(self, model):
        # The attention's mask rounds to 1 at every position, so the shorter prompt's row sees its pad keys.
        def body(m):
            return m.attention_mask, m.layers[0].self_attn.attention_head_outputs

        mask, batched = run(model, body, MASKED_BATCH)
        real = int(mask[1].sum())
        assert real < mask.shape[1]
        alone = run(model, lambda m: m.layers[0].self_attn.attention_head_outputs, MASKED_BATCH[1])
        assert alone.shape[1] == real
        assert not torch.allclose(batched[1, :real], alone[0], atol=1e-4), "the pad keys were masked"

"""Data2Vec text (`data2vec-text`), end to end: RoBERTa's encoder under the `data2vec_text` trunk, positions counted from the padding id plus one."""

import torch

from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness.encoder import MASKED_BATCH
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("data2vec-text")


class TestData2VecText(FamilySuite):
    CHECKPOINT = "data2vec_text"
    FAMILY = FAMILY
    NATIVE = rows(
        "data2vec_text",
        "encoder.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.self_output.LayerNorm",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = OUTPUT_NORM
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.decoder"

    def test_stream_entering_block_zero_is_the_normed_embedding_sum(self, model):
        def body(m):
            return m.token_embeddings, m.data2vec_text.embeddings.output, m.layers[0].layer_input

        tokens, summed, entering = run(model, body)
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the normed sum, not the token table"

    def test_positions_count_from_the_padding_id_plus_one(self, model):
        # A real token's position is its count among the row's real tokens plus the padding id; a pad reads the pad row.
        pad = model.config.pad_token_id

        def body(m):
            return m.attention_mask, m.data2vec_text.embeddings.position_embeddings.input

        mask, positions = run(model, body, MASKED_BATCH)
        expected = (mask.cumsum(-1) * mask + pad).long()
        assert torch.equal(positions, expected), positions.tolist()
        assert int(positions[0, 0]) == pad + 1

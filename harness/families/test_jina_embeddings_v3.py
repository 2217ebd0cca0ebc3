"""Jina embeddings v3 (`jina_embeddings_v3`), end to end: a bidirectional post-LN encoder with rotary positions, under its masked-LM head."""

import torch

from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("jina_embeddings_v3")


class TestJinaEmbeddingsV3(FamilySuite):
    CHECKPOINT = "jina_embeddings_v3"
    FAMILY = FAMILY
    NATIVE = rows("roberta", "layers", "embeddings.word_embeddings", None, ln1=None, head="lm_head")
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = "post_mlp_layernorm"
    VOCAB_PROJECTION = "lm_head.decoder"
    PLAIN_UP_PROJ = True

    def test_stream_entering_block_zero_is_the_normed_embedding_sum(self, model):
        def body(m):
            return m.token_embeddings, m.roberta.embeddings.output, m.layers[0].layer_input

        tokens, summed, entering = run(model, body)
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the normed sum, not the token table"

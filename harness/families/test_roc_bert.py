"""RoCBert (`roc_bert`), end to end: BERT's post-LN encoder, its token, shape and pronunciation tables concatenated."""

import torch

from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("roc_bert")


class TestRoCBert(FamilySuite):
    CHECKPOINT = "roc_bert"
    FAMILY = FAMILY
    NATIVE = rows(
        "roc_bert",
        "encoder.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.self_output.LayerNorm",
        head="cls",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = OUTPUT_NORM
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.predictions.decoder"

    def test_stream_entering_block_zero_is_the_normed_embedding_sum(self, model):
        def body(m):
            return m.token_embeddings, m.roc_bert.embeddings.output, m.layers[0].layer_input

        tokens, summed, entering = run(model, body)
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the normed sum, not the token table"

    def test_shape_and_pronunciation_ids_default_to_zeros(self, model, clean):
        # Without the two id tensors the model reads id 0 in both tables; other ids move the stream entering block 0.
        ids = clean["input_ids"]

        def entering(**kwargs):
            with model.trace(ids, **kwargs):
                value = model.layers[0].layer_input.save()
            return value

        default = entering()
        zeros = torch.zeros_like(ids)
        assert torch.equal(default, entering(input_shape_ids=zeros, input_pronunciation_ids=zeros))
        assert not torch.equal(default, entering(input_shape_ids=zeros + 3, input_pronunciation_ids=zeros))
        assert not torch.equal(default, entering(input_shape_ids=zeros, input_pronunciation_ids=zeros + 3))

"""DistilBERT (`distilbert`), end to end: a bidirectional post-LN encoder in its own modules, a four-module head."""

import torch

from nnterp.families import distilbert
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("distilbert")


class TestDistilBert(FamilySuite):
    CHECKPOINT = "distilbert"
    FAMILY = FAMILY
    NATIVE = rows(
        "distilbert",
        "transformer.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="sa_layer_norm",
        mlp="ffn",
        head="vocab_transform",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = distilbert._OUTPUT_NORM
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "vocab_projector"

    def test_lens_runs_the_four_head_modules(self, model):
        # The head has no container: the lens is the transform, the activation, the norm and the projection.
        def body(m):
            return m.layers[-1].layer_output, m.lm_head.output, m.vocab_layer_norm.output, m.lm_head_output, m.logits

        last, transformed, normed, projected, logits = run(model, body)
        head = model._module
        assert torch.equal(transformed, head.vocab_transform(last)), "lm_head is not the head's transform"
        assert torch.equal(normed, head.vocab_layer_norm(head.activation(transformed)))
        assert torch.equal(projected, head.vocab_projector(normed)) and torch.equal(projected, logits)
        assert torch.equal(model.project_on_vocab(last), logits)

    def test_stream_entering_block_zero_is_the_normed_embedding_sum(self, model):
        def body(m):
            return m.token_embeddings, m.distilbert.embeddings.output, m.layers[0].layer_input

        tokens, summed, entering = run(model, body)
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the normed sum, not the token table"

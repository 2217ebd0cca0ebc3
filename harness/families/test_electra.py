"""ELECTRA (`electra`), end to end: the generator, BERT's post-LN blocks, and its embeddings projected where narrower."""

import pytest
import torch

from nnterp import StandardizedTransformer, Unavailable
from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness import locate
from nnterp_harness.encoder import MASKED
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("electra")


class TestElectra(FamilySuite):
    CHECKPOINT = "electra"
    FAMILY = FAMILY
    NATIVE = rows(
        "electra",
        "encoder.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.self_output.LayerNorm",
        head="generator_predictions",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = OUTPUT_NORM
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "generator_lm_head"

    def test_stream_entering_block_zero_is_the_normed_embedding_sum(self, model):
        def body(m):
            return m.token_embeddings, m.electra.embeddings.output, m.layers[0].layer_input

        tokens, summed, entering = run(model, body)
        assert not hasattr(model.electra._module, "embeddings_project")
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the normed sum, not the token table"

    def test_lm_head_output_is_the_vocabulary_projection(self, model):
        def body(m):
            return m.lm_head.output, m.lm_head_output, m.logits

        transformed, head, logits = run(model, body)
        assert transformed.shape[-1] == model.config.embedding_size
        assert torch.equal(head, logits)


class TestElectraGenerator:
    """The released generators' shape: a token table narrower than the stream, projected before block 0."""

    @pytest.fixture(scope="class")
    def model(self):
        path = locate.checkpoint_path("electra_generator")
        return StandardizedTransformer(str(path), dispatch=True, attn_implementation="eager")

    def test_block_zero_reads_the_projection(self, model):
        def body(m):
            return m.electra.embeddings.output, m.electra.embeddings_project.output, m.layers[0].layer_input

        summed, projected, entering = run(model, body, MASKED)
        assert summed.shape[-1] == model.config.embedding_size < model.hidden_size
        assert torch.equal(projected, entering)

    def test_token_embeddings_are_unavailable(self, model):
        assert "embedding_size=32" in model.support()["token_embeddings"]
        with pytest.raises(Unavailable, match="layers\\[0\\].layer_input"):
            with model.trace(MASKED):
                model.token_embeddings.save()

    def test_the_lens_on_the_last_block_is_the_logits(self, model):
        def body(m):
            return m.project_on_vocab(m.layers[-1].layer_output), m.logits, m.mask_token_probs

        lens, logits, probs = run(model, body, MASKED)
        assert torch.equal(lens, logits)
        assert tuple(probs.shape) == (1, model.vocab_size)

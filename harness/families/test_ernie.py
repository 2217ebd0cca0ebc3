"""ERNIE (`ernie`), end to end: BERT's post-LN encoder under its masked-LM head, with ERNIE 3.0's task-type table."""

import torch

from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("ernie")


class TestErnie(FamilySuite):
    CHECKPOINT = "ernie"
    FAMILY = FAMILY
    NATIVE = rows(
        "ernie",
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
            return m.token_embeddings, m.ernie.embeddings.output, m.layers[0].layer_input

        tokens, summed, entering = run(model, body)
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the normed sum, not the token table"

    def test_the_task_type_table_enters_the_sum(self, model, clean):
        # Task id 0 is what the model reads by default; another id moves the stream entering block 0.
        ids = clean["input_ids"]

        def entering(**kwargs):
            with model.trace(ids, **kwargs):
                value = model.layers[0].layer_input.save()
            return value

        default = entering()
        assert torch.equal(default, entering(task_type_ids=torch.zeros_like(ids)))
        assert not torch.equal(default, entering(task_type_ids=torch.ones_like(ids)))

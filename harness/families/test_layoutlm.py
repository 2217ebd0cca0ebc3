"""LayoutLM (`layoutlm`), end to end: BERT's post-LN encoder, with a box per token read by 2-D position tables."""

import torch

from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("layoutlm")


class TestLayoutLM(FamilySuite):
    CHECKPOINT = "layoutlm"
    FAMILY = FAMILY
    NATIVE = rows(
        "layoutlm",
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
            return m.token_embeddings, m.layoutlm.embeddings.output, m.layers[0].layer_input

        tokens, summed, entering = run(model, body)
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the normed sum, not the token table"

    def test_boxes_default_to_zeros_and_move_the_stream(self, model, clean):
        # A trace without `bbox` reads every box as zeros; given boxes reach the embedding sum and the logits.
        ids = clean["input_ids"]

        def traced(**kwargs):
            with model.trace(ids, **kwargs):
                entering = model.layers[0].layer_input.save()
                logits = model.logits.save()
            return entering, logits

        default = traced()
        zeros = torch.zeros(*ids.shape, 4, dtype=torch.long)
        for ours, theirs in zip(default, traced(bbox=zeros)):
            assert torch.equal(ours, theirs)
        boxes = torch.tensor([10, 20, 30, 50]).expand(*ids.shape, 4)
        for ours, theirs in zip(default, traced(bbox=boxes)):
            assert not torch.equal(ours, theirs), "the boxes did not reach the model"

"""ConvBERT (`convbert`), end to end: BERT's regrouped post-LN blocks, softmax heads beside span-based convolution heads."""

import torch

from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("convbert")


class TestConvBert(FamilySuite):
    CHECKPOINT = "convbert"
    FAMILY = FAMILY
    NATIVE = rows(
        "convbert",
        "encoder.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.self_output.LayerNorm",
        head="generator_predictions",
    )
    EXPECTED_UNAVAILABLE = {**POST_LN_UNAVAILABLE, "self_attn.attention_premix": "side by side"}
    OUTPUT_NORM = OUTPUT_NORM
    PLAIN_UP_PROJ = True
    PREMIX_IS_HEAD_OUTPUTS = False
    HEAD_SIDE_PATH = True
    VOCAB_PROJECTION = "generator_lm_head"

    def test_softmax_heads_are_half_the_configured_heads(self, model):
        # The decision: `num_heads` counts the softmax heads; the output projection reads twice as many vectors.
        attn = model.layers[0].self_attn
        assert attn.num_heads == model.config.num_attention_heads // model.config.head_ratio
        assert attn.o_proj._module.in_features == 2 * attn.num_heads * attn.head_dim

    def test_head_outputs_are_the_first_half_of_the_projections_input(self, model):
        def body(m):
            attn = m.layers[0].self_attn
            return attn.attention_head_outputs, attn.o_proj.input

        heads, projected = run(model, body)
        assert torch.equal(heads.flatten(-2), projected[..., : heads.shape[-2] * heads.shape[-1]])

    def test_lens_runs_the_prediction_head_then_the_projection(self, model):
        def body(m):
            return m.layers[-1].layer_output, m.lm_head.output, m.lm_head_output, m.logits

        last, transformed, projected, logits = run(model, body)
        assert transformed.shape[-1] == model.config.embedding_size
        assert torch.equal(projected, model._module.generator_lm_head(transformed)) and torch.equal(projected, logits)
        assert torch.equal(model.project_on_vocab(last), logits)

"""DeBERTa-v2 (`deberta-v2`), end to end: DeBERTa's layout, log-bucketed shared-key relative attention, folded heads."""

import pytest
import torch

from nnterp import StandardizedTransformer
from nnterp.components.bert_block import OUTPUT_NORM
from nnterp.families import UnsupportedFamily
from nnterp_harness import locate
from nnterp_harness.helpers import with_config
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("deberta-v2")


class TestDebertaV2(FamilySuite):
    CHECKPOINT = "deberta_v2"
    FAMILY = FAMILY
    NATIVE = rows(
        "deberta",
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

    def test_scores_sum_the_content_and_position_terms(self, model):
        def body(m):
            attn = m.layers[0].self_attn
            queries, keys = attn.attention_queries, attn.attention_keys
            position = attn.self.source.rel_att_1.output
            return queries, keys, position, attn.attention_scores

        queries, keys, position, scores = run(model, body)
        scale = (queries.shape[-1] * 3) ** 0.5  # content, content-to-position, position-to-content
        content = queries @ (keys.transpose(-1, -2) / scale)
        position = position.unflatten(0, (1, -1))
        assert float(position.abs().max()) > 0, "the relative-position terms are zero"
        assert torch.allclose(scores, content + position, atol=1e-5), "the scores are not q·k plus the position terms"
        assert not torch.allclose(scores, content, atol=1e-3)

    def test_a_key_edit_reaches_the_position_term(self, model):
        def position(m, edit):
            attn = m.layers[0].self_attn
            if edit:
                attn.attention_keys = attn.attention_keys * 0
            return attn.self.source.rel_att_1.output

        clean, edited = run(model, lambda m: position(m, False)), run(model, lambda m: position(m, True))
        assert not torch.allclose(clean, edited), "zeroed keys left the position-to-content term unchanged"


def test_a_convolution_after_block_zero_is_refused(tmp_path_factory):
    path = with_config(
        locate.checkpoint_path("deberta_v2"), tmp_path_factory.mktemp("deberta_v2_conv"), conv_kernel_size=3
    )
    with pytest.raises(UnsupportedFamily, match=r"convolution after block 0 \(conv_kernel_size=3\)"):
        StandardizedTransformer(str(path), dispatch=True, attn_implementation="eager")

"""Nyströmformer (`nystromformer`), end to end: BERT's blocks, the exact softmax where landmarks equal the segment."""

import pytest
import torch

from nnterp import StandardizedTransformer
from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness import locate
from nnterp_harness.helpers import with_config
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("nystromformer")


class TestNystromformer(FamilySuite):
    CHECKPOINT = "nystromformer"
    FAMILY = FAMILY
    NATIVE = rows(
        "nystromformer",
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

    def test_head_outputs_carry_the_value_convolution(self, model):
        # The heads' outputs are the pattern's mix of the values plus the depthwise convolution over them.
        def body(m):
            attn = m.layers[0].self_attn
            return attn.attention_values, attn.attention_probabilities, attn.attention_head_outputs

        values, pattern, heads = run(model, body)
        mixed = (pattern @ values).transpose(1, 2)
        assert not torch.allclose(heads, mixed, atol=1e-4), "the convolution added nothing"
        conv = model._module.nystromformer.encoder.layer[0].attention.self.conv
        with torch.no_grad():
            expected = mixed + conv(values).transpose(1, 2)
        assert torch.allclose(heads, expected, atol=1e-5)


@pytest.fixture(scope="module")
def approximated(tmp_path_factory):
    path = with_config(
        locate.checkpoint_path("nystromformer"),
        tmp_path_factory.mktemp("nystromformer_landmarks"),
        num_landmarks=4,
        segment_means_seq_len=16,
    )
    return StandardizedTransformer(str(path), dispatch=True, attn_implementation="eager")


def test_the_approximation_has_no_pattern(approximated):
    support = approximated.support(layer=0)
    for key in ("self_attn.attention_scores", "self_attn.attention_probabilities"):
        assert "forms no [query, key] pattern" in support[key], support[key]

    def body(m):
        return m.layers[0].self_attn.attention_queries, m.layers[0].layer_output

    # The approximation takes inputs exactly `segment_means_seq_len` long.
    prompt = next(p for p in ("a " * n for n in range(1, 40)) if len(approximated.tokenizer(p).input_ids) == 16)
    queries, out = run(approximated, body, prompt)
    assert queries.shape[2] == 16 and out.shape[1] == 16

"""Longformer (`longformer`), end to end: BERT's blocks over a window-padded sequence, a banded sliding window."""

import pytest
import torch

from nnterp import StandardizedTransformer
from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness import locate
from nnterp_harness.helpers import with_config
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("longformer")


class TestLongformer(FamilySuite):
    CHECKPOINT = "longformer"
    FAMILY = FAMILY
    NATIVE = rows(
        "longformer",
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

    @pytest.fixture(autouse=True)
    def _root(self, model):
        type(self).ROOT = model._module

    def native(self, value):
        # The blocks run the window-padded sequence; the values serve the caller's positions, the first ones.
        return value[:, : self.ROOT._nnterp_user_positions]

    def test_blocks_run_the_padded_sequence(self, model):
        # The trunk pads to a multiple of the window; the values serve the caller's positions, the first ones.
        def body(m):
            return m.input_ids, m.layers[0].layer_output, m.longformer.encoder.layer[0].output[0]

        ids, ours, padded = run(model, body)
        window = max(model.config.attention_window)
        assert padded.shape[1] % window == 0 and padded.shape[1] > ids.shape[1]
        assert ours.shape[1] == ids.shape[1] and torch.equal(ours, padded[:, : ids.shape[1]])

    def test_a_stream_assignment_fills_the_callers_positions(self, model):
        def body(m):
            m.layers[0].layer_output = torch.zeros_like(m.layers[0].layer_output)
            return m.layers[1].layer_input, m.longformer.encoder.layer[1].input

        entering, padded = run(model, body)
        assert float(entering.abs().max()) == 0.0
        assert float(padded[:, entering.shape[1] :].abs().max()) > 0.0, "the padded positions lost their stream"


@pytest.fixture(scope="module")
def windowed(tmp_path_factory):
    path = with_config(
        locate.checkpoint_path("longformer"), tmp_path_factory.mktemp("longformer_window"), attention_window=[4, 4]
    )
    return StandardizedTransformer(str(path), dispatch=True, attn_implementation="eager")


def test_the_band_is_rebuilt_on_the_keys(windowed):
    # A window of 4: each query weighs the 2 keys on either side of it; the pattern on every other key is zero.
    def body(m):
        attn = m.layers[0].self_attn
        # Longformer splits the values into heads after the softmax.
        return attn.attention_scores, attn.attention_probabilities, attn.attention_values, attn.attention_head_outputs

    scores, pattern, values, heads = run(windowed, body)
    n = pattern.shape[-1]
    assert n > 5, "the prompt does not run past the window"
    distance = (torch.arange(n)[:, None] - torch.arange(n)[None, :]).abs()
    assert float(pattern[..., distance > 2].abs().max()) == 0.0
    assert bool((scores[..., distance > 2] == float("-inf")).all())
    assert bool((pattern[..., distance <= 2] > 0).all())
    assert torch.allclose(torch.softmax(scores, -1), pattern, atol=1e-6)
    assert torch.allclose(pattern.sum(-1), torch.ones(pattern.shape[:-1]), atol=1e-5)
    assert torch.allclose((pattern @ values).transpose(1, 2), heads, atol=1e-5)
    assert windowed.layers[0].self_attn.attention_window == 5


def test_an_edit_of_the_band_lands(windowed):
    def clean(m):
        return m.layers[0].self_attn.attention_probabilities, m.layers[0].layer_output

    before, out = run(windowed, clean)

    def boosted(m):
        m.layers[0].self_attn.attention_scores[:, :, 4, 3] += 5.0
        return m.layers[0].self_attn.attention_probabilities, m.layers[0].layer_output

    after, edited = run(windowed, boosted)
    assert bool((after[:, :, 4, 3] > before[:, :, 4, 3]).all())
    assert not torch.allclose(edited[:, 4], out[:, 4])
    assert torch.equal(edited[:, 0], out[:, 0]), "an edit of query 4's weights moved query 0"


def test_a_weight_past_the_window_is_refused(windowed):
    def body(m):
        pattern = m.layers[0].self_attn.attention_probabilities
        edited = pattern.clone()
        edited[:, :, 0, -1] = 0.5
        m.layers[0].self_attn.attention_probabilities = edited

    with pytest.raises(ValueError, match="outside the window"):
        run(windowed, body)


def test_global_attention_refuses_the_pattern(windowed):
    prompt = windowed.tokenizer("The Eiffel Tower is in Paris", return_tensors="pt")
    marks = torch.zeros_like(prompt["input_ids"])
    marks[:, 0] = 1
    with windowed.trace(dict(prompt), global_attention_mask=marks):
        out = windowed.layers[0].layer_output.save()
    assert out.shape[1] == prompt["input_ids"].shape[1]
    with pytest.raises(ValueError, match="global attention"):
        with windowed.trace(dict(prompt), global_attention_mask=marks):
            windowed.layers[0].self_attn.attention_probabilities.save()

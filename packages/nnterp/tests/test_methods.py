"""steer, skip_layers, project_on_vocab, get_topk_closest_tokens and probs_to_dict."""

import nnsight
import pytest
import torch

PROMPT = "The Eiffel Tower is in"


def test_skip_layers_hands_the_stream_through(gpt2):
    last = gpt2.num_layers - 1
    with gpt2.trace(PROMPT):
        before = gpt2.layers[0].layer_output.save()
        gpt2.skip_layers(1, last)
        after = gpt2.layers[last].layer_output.save()
    assert torch.equal(before, after)


def test_skip_layers_with_a_given_stream_and_a_tuple_block(path):
    from nnterp import StandardizedTransformer

    bloom = StandardizedTransformer(path("bloom"), dispatch=True)
    with bloom.trace(PROMPT):
        zeros = torch.zeros_like(bloom.layers[0].layer_output)
        bloom.skip_layers(1, 1, skip_with=zeros)
        nxt = bloom.layers[2].layer_input.save()
    assert torch.equal(nxt, torch.zeros_like(nxt))


def test_skip_layers_reads_the_entering_stream_itself(gpt2):
    from nnsight.intervention.interleaver import OutOfOrderError

    with pytest.raises(OutOfOrderError, match="model.transformer.h.1.input"):
        with gpt2.trace(PROMPT):
            gpt2.skip_layers(1, 1)
            gpt2.layers[1].layer_input.save()


def test_skip_layers_refuses_reversed_bounds(gpt2):
    with pytest.raises(ValueError, match="ascending"):
        gpt2.skip_layers(2, 1)


def test_steer_adds_to_the_selected_positions_only(gpt2):
    torch.manual_seed(0)
    vector = torch.randn(gpt2.hidden_size)
    with gpt2.trace(PROMPT):
        clean = gpt2.layers[1].layer_output.save()
    with gpt2.trace(PROMPT):
        gpt2.steer(1, vector, factor=3.0, token_positions=-1)
        steered = gpt2.layers[1].layer_output.save()
    assert torch.allclose(steered[:, -1] - clean[:, -1], 3 * vector, atol=1e-5)
    assert torch.equal(steered[:, :-1], clean[:, :-1])


def test_steer_refuses_unsorted_layers(gpt2):
    with pytest.raises(ValueError, match="ascending"):
        gpt2.steer([2, 1], torch.zeros(gpt2.hidden_size))


@pytest.mark.parametrize("name", ["gpt2", "gemma2"])
def test_project_on_vocab_on_the_last_block_is_the_logits(path, name):
    from nnterp import StandardizedTransformer

    model = StandardizedTransformer(path(name), dispatch=True)
    with model.trace(PROMPT):
        last = model.layers[-1].layer_output.save()
        inside = model.project_on_vocab(last).save()
        logits = model.logits.save()
    assert torch.allclose(model.project_on_vocab(last), logits, atol=1e-5)
    assert torch.allclose(inside, logits, atol=1e-5)
    if name == "gemma2":
        raw = model.lm_head(model.norm(last))
        assert not torch.allclose(raw, logits), "the softcap changes the head's output"


def test_get_topk_closest_tokens_is_a_list_per_position(gpt2):
    with gpt2.trace(PROMPT):
        last = gpt2.layers[-1].layer_output.save()
        probs = gpt2.next_token_probs.save()
    rows = gpt2.get_topk_closest_tokens(last[0], k=3)
    assert isinstance(rows, list) and len(rows) == last.shape[1] and all(len(row) == 3 for row in rows)
    one = gpt2.get_topk_closest_tokens(last[0, -1], k=3)
    assert len(one) == 1 and list(one[0]) == list(rows[-1])
    assert list(one[0].values()) == pytest.approx(list(rows[-1].values()), rel=1e-5)
    assert gpt2.probs_to_dict(probs[0], k=3) == pytest.approx(rows[-1])


def test_a_logit_lens_loop_inside_one_trace(gpt2):
    with gpt2.trace(PROMPT):
        lens = nnsight.save([gpt2.project_on_vocab(layer.layer_output)[0, -1] for layer in gpt2.layers])
        logits = gpt2.logits.save()
    assert len(lens) == gpt2.num_layers
    assert torch.allclose(lens[-1], logits[0, -1], atol=1e-5)

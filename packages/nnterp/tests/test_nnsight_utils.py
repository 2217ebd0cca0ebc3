"""nnterp.nnsight_utils on a left-padded batch."""

import pytest
import torch

from nnterp.nnsight_utils import (
    collect_last_token_activations_session,
    collect_token_activations_batched,
    compute_next_token_probs,
    get_token_activations,
)

PROMPTS = ["The Eiffel Tower is in", "Hello"]


def test_get_token_activations_reads_the_last_token_of_every_prompt(gpt2):
    acts = get_token_activations(gpt2, PROMPTS, layers=[2, 0])
    assert acts.shape == (2, 2, gpt2.hidden_size) and acts.device.type == "cpu"
    with gpt2.trace(PROMPTS):
        first = gpt2.layers[0].layer_output[:, -1].save()
        third = gpt2.layers[2].layer_output[:, -1].save()
    assert torch.allclose(acts[0], third) and torch.allclose(acts[1], first)


def test_the_padding_side_decides_the_index(gpt2):
    with pytest.raises(ValueError, match="a positive token index needs right padding, and the tokenizer pads 'left'"):
        get_token_activations(gpt2, PROMPTS, idx=2)
    # position 0 of the shorter, left-padded prompt is padding
    with pytest.raises(ValueError, match="token index 0 needs right padding, and the tokenizer pads 'left'"):
        get_token_activations(gpt2, PROMPTS, layers=[0], idx=0)


def test_get_activations_picks_another_value(gpt2):
    attn = get_token_activations(
        gpt2, PROMPTS, layers=[1], get_activations=lambda m, i: m.layers[i].self_attn.attention_output
    )
    with gpt2.trace(PROMPTS):
        expected = gpt2.layers[1].self_attn.attention_output[:, -1].save()
    assert torch.allclose(attn[0], expected)


def test_the_tracer_form_reads_inside_an_open_trace(gpt2):
    with gpt2.trace(PROMPTS) as tracer:
        live = get_token_activations(gpt2, layers=[0, 1], tracer=tracer).save()
    assert live.shape == (2, 2, gpt2.hidden_size)
    assert torch.allclose(live, get_token_activations(gpt2, PROMPTS, layers=[0, 1]))


def test_the_trace_stops_after_the_last_requested_block(gpt2):
    last = gpt2.layers[-1]
    runs = []
    handle = last._module.register_forward_hook(lambda *args: runs.append(1))
    try:
        get_token_activations(gpt2, PROMPTS, layers=[0])
    finally:
        handle.remove()
    assert runs == []


def test_batched_and_session_collection_agree(gpt2):
    many = [f"Prompt number {i}" for i in range(5)]
    batched = collect_token_activations_batched(gpt2, many, batch_size=2, layers=[0, 2])
    session = collect_last_token_activations_session(gpt2, many, batch_size=2, layers=[0, 2])
    whole = get_token_activations(gpt2, many, layers=[0, 2])
    assert batched.shape == (2, 5, gpt2.hidden_size)
    assert torch.allclose(batched, session, atol=1e-5)
    assert torch.allclose(batched, whole, atol=1e-4)
    seen = []
    collect_token_activations_batched(gpt2, many, batch_size=2, layers=[0], tqdm=lambda it: seen.append(len(it)) or it)
    assert seen == [3]


def test_a_remote_dry_run_goes_through_one_session(gpt2):
    many = [f"Prompt number {i}" for i in range(4)]
    local = collect_token_activations_batched(gpt2, many, batch_size=2, layers=[1], remote="local")
    assert torch.allclose(local, collect_token_activations_batched(gpt2, many, batch_size=2, layers=[1]), atol=1e-5)


def test_compute_next_token_probs(gpt2):
    probs = compute_next_token_probs(gpt2, PROMPTS)
    assert probs.shape == (2, gpt2.vocab_size) and probs.device.type == "cpu"
    assert torch.allclose(probs.sum(-1), torch.ones(2), atol=1e-5)

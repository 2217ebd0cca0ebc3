"""The model's methods (`steer`, `skip_layers`, `project_on_vocab`, `probs_to_dict`, a prompt) check their arguments before the run."""

import pytest
import torch
from bad_input_support import PROMPT, still_runs


def test_steer_with_a_vector_of_the_wrong_width(gpt2):
    with pytest.raises(ValueError, match=r"steer\(vector=\.\.\.\) has shape \(7,\).*hidden_size=64"):
        with gpt2.trace(PROMPT):
            gpt2.steer(layers=[0], vector=torch.zeros(7))
    still_runs(gpt2)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"layers": [5]}, IndexError, r"steer\(layers=\.\.\.\)=5 is out of range.*0 to 2"),
        ({"layers": [2, 1]}, ValueError, r"ascending order.*\[2, 1\]"),
        ({"layers": ["0"]}, TypeError, "not a block index"),
        ({"layers": 0, "vector": [0.0] * 64}, TypeError, "takes a tensor"),
        ({"layers": 0, "token_positions": 50}, IndexError, r"token_positions=\.\.\.\)=50 is out of range"),
        ({"layers": 0, "batch_index": [0, 3]}, IndexError, r"batch_index=\.\.\.\)=\[0, 3\] is out of range"),
    ],
)
def test_steer_arguments(gpt2, kwargs, error, match):
    kwargs = {"vector": torch.zeros(gpt2.hidden_size), **kwargs}
    with pytest.raises(error, match=match):
        with gpt2.trace(PROMPT):
            gpt2.steer(**kwargs)
    still_runs(gpt2)


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((0, 3), IndexError, r"skip_layers end=3 is out of range.*0 to 2"),
        ((-4, 0), IndexError, r"skip_layers start=-4 is out of range"),
        ((2, 1), ValueError, r"start comes after end"),
        ((0.0, 1), TypeError, "not a block index"),
    ],
)
def test_skip_layers_bounds(gpt2, args, error, match):
    with pytest.raises(error, match=match):
        with gpt2.trace(PROMPT):
            gpt2.skip_layers(*args)
    still_runs(gpt2)


def test_skip_with_of_the_wrong_width(gpt2):
    with pytest.raises(ValueError, match=r"skip_with=\.\.\.\) has shape \(1, 2, 5\).*hidden_size=64"):
        with gpt2.trace(PROMPT):
            gpt2.skip_layers(0, 1, skip_with=torch.zeros(1, 2, 5))


def test_project_on_vocab_of_the_wrong_width(lazy):
    with pytest.raises(ValueError, match=r"project_on_vocab\(hidden\) has shape \(3,\).*hidden_size=64"):
        lazy.project_on_vocab(torch.zeros(3))
    with pytest.raises(ValueError, match=r"get_topk_closest_tokens\(hidden\) has shape \(2, 3\)"):
        lazy.get_topk_closest_tokens(torch.zeros(2, 3))


def test_probs_to_dict_k(lazy):
    probs = torch.full((lazy.vocab_size,), 1 / lazy.vocab_size)
    for k in (0, lazy.vocab_size + 1, 2.5):
        with pytest.raises(ValueError, match=rf"k={k!r}.*from 1 to the distribution's size, {lazy.vocab_size}"):
            lazy.probs_to_dict(probs, k=k)
    with pytest.raises(ValueError, match=r"index a row first"):
        lazy.probs_to_dict(probs[None])


@pytest.mark.parametrize("prompt", ["", [""], []])
def test_an_empty_prompt_is_refused_before_the_run(gpt2, prompt):
    with pytest.raises(ValueError, match=r"no tokens|empty list of prompts"):
        with gpt2.trace(prompt):
            gpt2.logits.save()
    still_runs(gpt2)


def test_an_empty_prompt_inside_a_batch_is_refused_by_position(gpt2):
    with pytest.raises(ValueError, match=r"prompt at position 2 of the batch, '', tokenizes to no tokens"):
        with gpt2.trace(["hello", "world", ""]):
            gpt2.logits.save()
    still_runs(gpt2)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"max_new_tokens": 5}, r"generation keyword\(s\) max_new_tokens=.*model\.generate\(prompt, max_new_tokens="),
        ({"do_sample": True}, r"generation keyword\(s\) do_sample=.*model\.generate"),
        ({"return_full_text": False}, r"return_full_text=, which GPT2LMHeadModel\.forward does not take"),
        ({"atention_mask": None}, r"atention_mask=, which GPT2LMHeadModel\.forward does not take.*attention_mask"),
    ],
)
def test_a_keyword_the_forward_does_not_read_is_refused(gpt2, kwargs, match):
    with pytest.raises(TypeError, match=match):
        with gpt2.trace(PROMPT, **kwargs):
            gpt2.logits.save()
    with pytest.raises(TypeError, match=match):
        with gpt2.trace() as tracer:
            with tracer.invoke(PROMPT, **kwargs):
                gpt2.logits.save()
    still_runs(gpt2)


def test_a_keyword_given_without_a_prompt_is_held_to_the_same_rule(gpt2):
    """A keyword that gives no rows is laid over the combined forward: an invoke's and the trace's alike."""
    generation = r"generation keyword\(s\) max_new_tokens=, and a trace runs one forward.*model\.generate\("
    with pytest.raises(TypeError, match=rf"^tracer\.invoke\(\) without a prompt got the {generation}"):
        with gpt2.trace() as tracer:
            with tracer.invoke(max_new_tokens=5):
                gpt2.logits.save()
    with pytest.raises(TypeError, match=r"^tracer\.invoke\(\) without a prompt got the keyword\(s\) atention_mask="):
        with gpt2.trace() as tracer:
            with tracer.invoke(PROMPT):
                gpt2.logits.save()
            with tracer.invoke(atention_mask=None):
                pass
    with pytest.raises(TypeError, match=rf"^model\.trace\(\) got the {generation}"):
        with gpt2.trace(max_new_tokens=5) as tracer:
            with tracer.invoke(PROMPT):
                gpt2.logits.save()
    still_runs(gpt2)


def test_a_forward_keyword_given_without_a_prompt_still_reaches_the_forward(gpt2):
    with gpt2.trace() as tracer:
        with tracer.invoke(PROMPT):
            attention = gpt2.layers[0].self_attn.attention_probabilities.save()
        with tracer.invoke(output_attentions=True):
            pass
    assert torch.allclose(attention.sum(-1), torch.ones(()))


def test_keywords_the_trace_reads_still_pass(gpt2):
    ids = gpt2.tokenizer(PROMPT, return_tensors="pt")
    with gpt2.trace(PROMPT, add_special_tokens=False, use_cache=False, output_attentions=False):
        text = gpt2.logits.save()
    with gpt2.trace(ids["input_ids"], attention_mask=ids["attention_mask"]):
        tokens = gpt2.logits.save()
    assert torch.equal(text, tokens)
    with gpt2.generate(PROMPT, max_new_tokens=2, do_sample=False) as tracer:
        generated = tracer.result.save()
    assert generated.shape[1] == ids["input_ids"].shape[1] + 2


@pytest.mark.parametrize(
    ("positions", "match"),
    [
        (slice(100, 200), r"slice\(100, 200, None\) runs past an axis of size \d+"),
        (slice(-40, None), r"slice\(-40, None, None\) runs past an axis of size"),
        (slice(3, 3), r"slice\(3, 3, None\) selects no position of an axis of size"),
        ([], r"\[\] selects no position"),
    ],
)
def test_steer_positions_that_select_nothing_or_run_past_the_prompt(gpt2, positions, match):
    with pytest.raises(IndexError, match=rf"steer\(token_positions=\.\.\.\)={match}"):
        with gpt2.trace(PROMPT):
            gpt2.steer(layers=0, vector=torch.zeros(gpt2.hidden_size), token_positions=positions)
    with pytest.raises(IndexError, match=r"steer\(batch_index=\.\.\.\)=slice\(1, 2, None\) runs past"):
        with gpt2.trace(PROMPT):
            gpt2.steer(layers=0, vector=torch.zeros(gpt2.hidden_size), batch_index=slice(1, 2))
    still_runs(gpt2)


def test_steer_slices_within_the_prompt_still_steer(gpt2):
    with gpt2.trace(PROMPT):
        gpt2.steer(layers=0, vector=torch.ones(gpt2.hidden_size), token_positions=slice(-2, None))
        stream = gpt2.layers[1].layer_input.save()
    with gpt2.trace(PROMPT):
        clean = gpt2.layers[1].layer_input.save()
    assert torch.equal(stream[:, :-2], clean[:, :-2])
    assert torch.allclose(stream[:, -2:], clean[:, -2:] + 1)


def test_probs_to_dict_refuses_logits(gpt2):
    with gpt2.trace(PROMPT):
        logits = gpt2.logits[0, -1].save()
        probs = gpt2.next_token_probs[0].save()
    with pytest.raises(ValueError, match=r"takes a probability distribution.*sums to .*logits\.softmax\(-1\)"):
        gpt2.probs_to_dict(logits)
    with pytest.raises(ValueError, match="not one"):
        gpt2.probs_to_dict(probs * 3)
    assert len(gpt2.probs_to_dict(probs.to(torch.bfloat16), k=3)) == 3


def test_steer_with_a_factor_that_is_not_a_number(gpt2):
    with pytest.raises(TypeError, match=r"steer\(factor='2'\) takes a number, got str"):
        with gpt2.trace(PROMPT):
            gpt2.steer(0, torch.zeros(gpt2.hidden_size), factor="2")
    still_runs(gpt2)


def test_steer_with_a_vector_that_does_not_broadcast(gpt2):
    with pytest.raises(
        ValueError,
        match=r"steer\(vector=\.\.\.\) has shape \(3, 64\), which does not broadcast.*layers\[0\]\.layer_output",
    ):
        with gpt2.trace(PROMPT):
            gpt2.steer(0, torch.zeros(3, gpt2.hidden_size))
    still_runs(gpt2)


def test_steer_with_a_vector_per_position_still_lands(gpt2):
    with gpt2.trace(PROMPT):
        seq = gpt2.layers[0].layer_output.shape[1]
        gpt2.steer(0, torch.ones(seq, gpt2.hidden_size), factor=0.0)
        logits = gpt2.logits.save()
    assert torch.isfinite(logits).all()


@pytest.mark.parametrize(
    "read",
    [
        (lambda m: m.layers[1].self_attn.attention_output, r"layers\[1\]\.self_attn\.attention_output"),
        (lambda m: m.layers[0].mlp.mlp_output, r"layers\[0\]\.mlp\.mlp_output"),
    ],
    ids=["attention", "mlp"],
)
def test_a_read_inside_a_skipped_block_names_the_skip(gpt2, read):
    read, name = read
    with pytest.raises(
        ValueError,
        match=rf"^{name} \(on model\.transformer\.h\.\d\.\w+\) is inside block \d, which "
        r"skip_layers\(0, 1\) skipped.*layers\[1\]\.layer_output",
    ):
        with gpt2.trace(PROMPT):
            gpt2.skip_layers(0, 1)
            read(gpt2).save()
    still_runs(gpt2)


def test_a_skipped_block_output_and_the_next_block_stay_readable(gpt2):
    with gpt2.trace(PROMPT):
        entering = gpt2.layers[0].layer_input.save()
        gpt2.skip_layers(0, 1)
        skipped = gpt2.layers[1].layer_output.save()
        after = gpt2.layers[2].self_attn.attention_output.save()
    assert torch.equal(skipped, entering)
    assert torch.isfinite(after).all()

"""A trace refuses a prompt it cannot run before the model runs, and names a missing prompt or an unsaved value."""

import warnings

import pytest
import torch
from bad_input_support import PROMPT, still_runs

from nnterp import StandardizedTransformer
from nnterp.tracer import UnsavedWarning


@pytest.mark.parametrize(
    "prompt",
    [42, 1.5, [1.5], {"a": 1}, [None], ["a", 1], torch.zeros(1, 3)],
    ids=["int", "float", "float-list", "dict", "none-list", "mixed-list", "float-tensor"],
)
def test_a_prompt_of_another_type_says_what_a_prompt_is(gpt2, prompt):
    with pytest.raises(TypeError, match=r"trace\(\) got .* as its prompt.*(pass a string|torch\.long tensor of ids)"):
        with gpt2.trace(prompt):
            gpt2.logits.save()
    still_runs(gpt2)


@pytest.mark.parametrize(
    "prompt",
    [
        [PROMPT, "Paris is"],
        [1, 2, 3],
        [[1, 2, 3], [4, 5]],
        torch.tensor([1, 2, 3]),
        torch.tensor([[1, 2, 3]]),
        {"input_ids": [[1, 2, 3]]},
    ],
    ids=["texts", "ids", "ragged-ids", "1d-tensor", "2d-tensor", "dict"],
)
def test_every_accepted_prompt_form_still_runs(gpt2, prompt):
    with gpt2.trace(prompt):
        logits = gpt2.logits.save()
    assert torch.isfinite(logits).all()


def test_a_tokenizer_encoding_still_runs(gpt2):
    with gpt2.trace(gpt2.tokenizer(PROMPT, return_tensors="pt")):
        logits = gpt2.logits.save()
    assert logits.shape[:2] == (1, len(gpt2.tokenizer(PROMPT)["input_ids"]))


@pytest.mark.parametrize("ids", [[[10**6]], [[-1]], {"input_ids": torch.tensor([[3, 1024]])}])
def test_a_token_id_past_the_vocabulary_names_the_vocabulary(gpt2, ids):
    prompt = torch.tensor(ids) if isinstance(ids, list) else ids
    with pytest.raises(ValueError, match=r"token id -?\d+ is out of range: .*vocabulary holds 1024 ids, 0 to 1023"):
        with gpt2.trace(prompt):
            gpt2.logits.save()
    still_runs(gpt2)


@pytest.mark.parametrize("prompt", ["a " * 200, torch.ones(1, 129, dtype=torch.long)], ids=["text", "ids"])
def test_a_prompt_past_learned_positions_names_the_limit(gpt2, prompt):
    with pytest.raises(ValueError, match=r"the prompt is \d+ tokens long.*learned positions stop at 128"):
        with gpt2.trace(prompt):
            gpt2.logits.save()
    still_runs(gpt2)


def test_a_rotary_family_has_no_position_limit(path):
    llama = StandardizedTransformer(path("llama"), dispatch=True)
    assert llama.config.max_position_embeddings == 256
    with llama.trace(torch.ones(1, 300, dtype=torch.long)):
        logits = llama.logits.save()
    assert logits.shape[1] == 300


def test_trace_of_none_needs_a_prompt(gpt2):
    with pytest.raises(ValueError, match=r"trace\(\) needs a prompt, got None"):
        with gpt2.trace(None):
            gpt2.logits.save()
    still_runs(gpt2)


def test_trace_without_a_prompt_needs_one(gpt2):
    with pytest.raises(ValueError, match=r"trace\(\) needs a prompt: .*tracer\.invoke\(prompt\)"):
        with gpt2.trace():
            gpt2.logits.save()
    still_runs(gpt2)


def test_keywords_alone_are_no_prompt(gpt2):
    with pytest.raises(ValueError, match=r"trace\(\) needs a prompt \(only the keyword\(s\) use_cache=\): "):
        with gpt2.trace(use_cache=False):
            gpt2.logits.save()
    with pytest.raises(
        ValueError, match=r"needs a prompt, and none of its invokes gave one \(only the keyword\(s\) use_cache="
    ):
        with gpt2.trace() as tracer:
            with tracer.invoke(use_cache=False):
                gpt2.logits.save()
    still_runs(gpt2)


def test_trace_without_a_prompt_still_takes_invokes(gpt2):
    with gpt2.trace() as tracer:
        with tracer.invoke(PROMPT):
            logits = gpt2.logits.save()
    assert torch.isfinite(logits).all()


def test_a_value_assigned_and_never_saved_is_named(gpt2):
    with pytest.warns(UnsavedWarning, match=r"'out' is assigned in the trace and neither saved nor read.*\.save\(\)"):
        with gpt2.trace(PROMPT):
            out = gpt2.logits  # noqa: F841 - the mistake under test
    with pytest.raises(NameError):
        out  # noqa: B018 - nnsight leaves an unsaved value behind


def test_a_saved_or_used_value_gives_no_warning(gpt2):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnsavedWarning)
        with gpt2.trace(PROMPT):
            hidden = gpt2.layers[0].layer_output
            gpt2.layers[0].layer_output = hidden * 1
            logits = gpt2.logits.save()
    assert torch.isfinite(logits).all()


def test_a_save_in_a_branch_the_run_skips_gives_no_warning(gpt2):
    kept = torch.zeros(1)
    for has_value in (True, False):
        with warnings.catch_warnings():
            warnings.simplefilter("error", UnsavedWarning)
            with gpt2.trace(PROMPT):
                if has_value:
                    kept = gpt2.logits.save()
        assert torch.isfinite(kept).all() and kept.dim() == 3

"""The helpers check their model, the prompt list, layers, positions, padding side and batch size before the trace."""

import pytest
import torch
from bad_input_support import still_runs

from nnterp import StandardizedTransformer
from nnterp.nnsight_utils import (
    collect_last_token_activations_session,
    collect_token_activations_batched,
    compute_next_token_probs,
    get_token_activations,
)
from nnterp.prompt_utils import Prompt, get_first_tokens, next_token_probs_unsqueeze, run_prompts


@pytest.fixture(scope="module")
def left(path):
    return StandardizedTransformer(path("gpt2"), dispatch=True, tokenizer_kwargs={"padding_side": "left"})


def test_helper_layers_are_checked_before_the_trace(left):
    with pytest.raises(IndexError, match=r"layers=\[0, 7\] holds 7, out of range.*3 blocks"):
        get_token_activations(left, ["a b", "c"], layers=[0, 7])
    with pytest.raises(TypeError, match=r"holds '1', which is not a block index"):
        get_token_activations(left, ["a b", "c"], layers=["1"])


def test_helper_token_position_out_of_range(left):
    with pytest.raises(IndexError, match=r"idx=-40 is out of range.*positions on axis 1"):
        get_token_activations(left, ["a b", "c"], layers=[0], idx=-40)
    still_runs(left)


def test_helper_padding_side_contradicts_a_positive_index(left):
    with pytest.raises(
        ValueError, match="a positive token index needs right padding, and the tokenizer pads 'left'"
    ) as caught:
        get_token_activations(left, ["a b", "c"], idx=2)
    assert any("padding_side': 'right'" in note for note in getattr(caught.value, "__notes__", []))


def test_helper_batch_size(left):
    with pytest.raises(ValueError, match=r"batch_size=0: pass an int of at least 1"):
        collect_token_activations_batched(left, ["a", "b"], batch_size=0)


def test_helper_index_zero_needs_right_padding(left, path):
    with pytest.raises(ValueError, match="token index 0 needs right padding, and the tokenizer pads 'left'") as caught:
        get_token_activations(left, ["a b c", "d"], idx=0)
    assert any("padding_side': 'right'" in note for note in getattr(caught.value, "__notes__", []))
    right = StandardizedTransformer(path("gpt2"), dispatch=True, tokenizer_kwargs={"padding_side": "right"})
    first = get_token_activations(right, ["a b c", "d"], layers=[0], idx=0)
    with right.trace(["d"]):
        alone = right.layers[0].layer_output[:, 0].save()
    assert torch.allclose(first[0, 1], alone[0], atol=1e-5)


@pytest.mark.parametrize(
    "call",
    [
        lambda m: collect_token_activations_batched(m, "hello world", batch_size=2),
        lambda m: collect_last_token_activations_session(m, "hello world", batch_size=2),
    ],
    ids=["batched", "session"],
)
def test_helper_one_string_where_a_list_is_expected(left, call):
    with pytest.raises(
        TypeError, match=r"prompts='hello world' is one string.*one prompt per character; pass \[prompt\]"
    ):
        call(left)
    still_runs(left)


@pytest.mark.parametrize(
    "call",
    [
        lambda: get_token_activations("gpt2", ["a b"]),
        lambda: collect_token_activations_batched("gpt2", ["a b"], batch_size=1),
        lambda: compute_next_token_probs("gpt2", ["a b"]),
        lambda: run_prompts("gpt2", []),
        lambda: next_token_probs_unsqueeze("gpt2", ["a b"]),
    ],
    ids=[
        "get_token_activations",
        "collect_token_activations_batched",
        "compute_next_token_probs",
        "run_prompts",
        "next_token_probs_unsqueeze",
    ],
)
def test_a_helper_given_a_name_for_the_model_says_to_load_it(call):
    with pytest.raises(
        TypeError,
        match=r"takes a loaded StandardizedTransformer as its model, got 'gpt2'.*"
        r"StandardizedTransformer\('gpt2'\)",
    ):
        call()


def test_run_prompts_given_strings_for_prompts(left):
    with pytest.raises(TypeError, match=r"run_prompts takes Prompt objects, got str 'Paris is'.*Prompt\.from_strings"):
        run_prompts(left, ["Paris is"])
    prompt = Prompt.from_strings("Paris is", {"city": " Paris"}, left)
    with pytest.raises(TypeError, match=r"takes a list of Prompt, got one Prompt: pass \[prompt\]"):
        run_prompts(left, prompt)


def test_prompt_helpers_given_strings(left):
    with pytest.raises(TypeError, match=r"target_strings as a dict.*got str ' Paris'"):
        Prompt.from_strings("Paris is", " Paris", left)
    with pytest.raises(TypeError, match=r"model_or_tokenizer takes a loaded model or tokenizer, got str 'gpt2'"):
        get_first_tokens("Paris", "gpt2")
    with pytest.raises(TypeError, match=r"Prompt\.run takes a loaded StandardizedTransformer"):
        Prompt.from_strings("Paris is", {"city": " Paris"}, left).run("gpt2")

"""nnterp.prompt_utils: targets, their collisions and their mass over many prompts."""

import pytest
import torch

from nnterp.prompt_utils import Prompt, TokenizationError, get_first_tokens, next_token_probs_unsqueeze, run_prompts


@pytest.fixture(scope="module")
def targets(gpt2):
    return [
        Prompt.from_strings("The capital of France is", {"correct": "Paris", "wrong": ["London", "Berlin"]}, gpt2),
        Prompt.from_strings("The capital of Germany is", {"correct": "Berlin", "wrong": ["London", "Paris"]}, gpt2),
    ]


def test_first_tokens_differ_with_and_without_the_space(gpt2):
    ids = get_first_tokens("Paris", gpt2)
    tok = gpt2.add_prefix_false_tokenizer
    assert ids == [
        tok("Paris", add_special_tokens=False).input_ids[0],
        tok(" Paris", add_special_tokens=False).input_ids[0],
    ]
    assert len(set(ids)) == 2


def test_a_word_without_a_standalone_first_token(gpt2):
    with pytest.raises(TokenizationError, match="no standalone first token"):
        get_first_tokens("Zqxjkvw", gpt2)
    with pytest.raises(TokenizationError):
        get_first_tokens("  ", gpt2)


def test_collisions(targets, gpt2):
    assert targets[0].has_no_collisions()
    clash = Prompt.from_strings("x", {"a": "Paris", "b": ["Paris"]}, gpt2)
    assert not clash.has_no_collisions()


def test_run_prompts_sums_each_targets_mass(gpt2, targets):
    mass = run_prompts(gpt2, targets, batch_size=1)
    assert set(mass) == {"correct", "wrong"} and mass["correct"].shape == (2, 1)
    probs = next_token_probs_unsqueeze(gpt2, [targets[0].prompt])
    expected = probs[0, 0, targets[0].target_tokens["correct"]].sum()
    assert torch.allclose(mass["correct"][0, 0], expected, atol=1e-6)
    assert torch.allclose(targets[0].run(gpt2)["correct"], expected[None], atol=1e-6)


def test_get_probs_func_gives_the_layer_axis_a_meaning(gpt2, targets):
    def lens(model, batch, remote=False, layers=None):
        with model.trace(batch, remote=remote):
            rows = [model.project_on_vocab(model.layers[i].layer_output)[:, -1].softmax(-1) for i in layers]
            out = torch.stack(rows, dim=1).cpu().save()
        return out

    mass = run_prompts(
        gpt2, targets, batch_size=2, get_probs_func=lens, func_kwargs={"layers": [0, gpt2.num_layers - 1]}
    )
    assert mass["correct"].shape == (2, 2)
    plain = run_prompts(gpt2, targets, batch_size=2)
    assert torch.allclose(mass["correct"][:, -1], plain["correct"][:, 0], atol=1e-5)


def test_a_progress_bar_only_when_asked(gpt2, targets, capsys):
    run_prompts(gpt2, targets, batch_size=1)
    assert capsys.readouterr().err == ""
    seen = []
    run_prompts(gpt2, targets, batch_size=1, tqdm=lambda it: seen.append(len(it)) or it)
    assert seen == [2]


def test_every_prompt_names_the_same_targets(gpt2, targets):
    other = Prompt.from_strings("x", {"other": "Paris"}, gpt2)
    with pytest.raises(ValueError, match="same targets"):
        run_prompts(gpt2, [targets[0], other])


def test_a_remote_dry_run_of_run_prompts(gpt2, targets):
    local = run_prompts(gpt2, targets, batch_size=1, remote="local")
    plain = run_prompts(gpt2, targets, batch_size=1)
    assert torch.allclose(local["correct"], plain["correct"], atol=1e-6)

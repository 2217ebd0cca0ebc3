"""Prompts with named target tokens, and the probability mass on them over many prompts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch

from .nnsight_utils import _batches, check_model, check_padding


class TokenizationError(ValueError):
    """A word has no standalone first token under the tokenizer."""


def _tokenizer(model_or_tokenizer: Any, prefix_false: bool = True) -> Any:
    if isinstance(model_or_tokenizer, str) or not callable(
        getattr(model_or_tokenizer, "tokenizer", model_or_tokenizer)
    ):
        raise TypeError(
            f"model_or_tokenizer takes a loaded model or tokenizer, got {type(model_or_tokenizer).__name__} "
            f"{model_or_tokenizer!r:.60}; load one first, e.g. AutoTokenizer.from_pretrained(name)"
        )
    if hasattr(model_or_tokenizer, "add_prefix_false_tokenizer") and prefix_false:
        return model_or_tokenizer.add_prefix_false_tokenizer
    return getattr(model_or_tokenizer, "tokenizer", model_or_tokenizer)


def get_first_tokens(words: str | list[str], model_or_tokenizer: Any) -> list[int]:
    """The first token id of each word and of the word after a space, deduplicated, in order.

    Tokenized with `model.add_prefix_false_tokenizer` when given a model, so that
    `"Paris"` and `" Paris"` differ.

    Raises:
        TokenizationError: a word's first token is only a space, or the word is empty.
    """
    tokenizer = _tokenizer(model_or_tokenizer)
    words = [words] if isinstance(words, str) else list(words)
    ids: list[int] = []
    for word in words:
        stripped = word.strip()
        if not stripped:
            raise TokenizationError(f"{word!r} is empty: a target needs a word")
        for text in (stripped, " " + stripped):
            tokens = tokenizer(text, add_special_tokens=False)["input_ids"]
            if not tokens or not tokenizer.decode(tokens[:1]).strip():
                raise TokenizationError(
                    f"{text!r} has no standalone first token under this tokenizer: it starts with "
                    f"{tokenizer.decode(tokens[:1])!r}; pick the target token ids yourself"
                )
            if tokens[0] not in ids:
                ids.append(tokens[0])
    return ids


@dataclass
class Prompt:
    """A prompt and named sets of target token ids (`target_tokens`), with the strings they came from."""

    prompt: str
    target_tokens: dict[str, list[int]]
    target_strings: dict[str, list[str]] | None = field(default=None)

    @classmethod
    def from_strings(cls, prompt: str, target_strings: dict[str, str | list[str]], model_or_tokenizer: Any) -> Prompt:
        """Each target's ids are `get_first_tokens` of its words."""
        if not isinstance(prompt, str):
            raise TypeError(f"Prompt.from_strings takes the prompt as a str, got {type(prompt).__name__}")
        if not isinstance(target_strings, dict):
            raise TypeError(
                f"Prompt.from_strings takes target_strings as a dict of name to word(s), got "
                f"{type(target_strings).__name__} {target_strings!r:.60}; e.g. {{'target': ' Paris'}}"
            )
        strings = {name: [words] if isinstance(words, str) else list(words) for name, words in target_strings.items()}
        tokens = {name: get_first_tokens(words, model_or_tokenizer) for name, words in strings.items()}
        return cls(prompt, tokens, strings)

    def has_no_collisions(self) -> bool:
        """Whether no token id belongs to two targets."""
        seen: set[int] = set()
        for ids in self.target_tokens.values():
            if seen & set(ids):
                return False
            seen |= set(ids)
        return True

    def get_target_probs(self, probs: torch.Tensor) -> dict[str, torch.Tensor]:
        """Each target's mass: the sum of `probs[..., ids]` over its ids."""
        return {name: probs[..., ids].sum(-1) for name, ids in self.target_tokens.items()}

    def run(self, model: Any, get_probs: Callable | None = None) -> dict[str, torch.Tensor]:
        """The targets' mass on this prompt, `[layers]` each, through `get_probs` (`next_token_probs_unsqueeze`)."""
        check_model(model, "Prompt.run")
        get_probs = get_probs or next_token_probs_unsqueeze
        return {name: mass[0] for name, mass in self.get_target_probs(get_probs(model, [self.prompt])).items()}


def next_token_probs_unsqueeze(model: Any, prompt: Any, remote: bool | str = False) -> torch.Tensor:
    """The default `get_probs_func`: `next_token_probs` with a layer axis of one, `[batch, 1, vocab_size]`, on the CPU."""
    check_model(model, "next_token_probs_unsqueeze")
    with model.trace(prompt, remote=remote):
        probs = model.next_token_probs.unsqueeze(1).cpu().save()
    return probs


def run_prompts(
    model: Any,
    prompts: list[Prompt],
    batch_size: int = 32,
    get_probs_func: Callable | None = None,
    func_kwargs: dict | None = None,
    remote: bool | str = False,
    tqdm: Callable | None = None,
) -> dict[str, torch.Tensor]:
    """Each target's mass per prompt, `[num_prompts, layers]`, over batches of `prompts`.

    `get_probs_func(model, batch, remote=..., **func_kwargs)` returns `[batch, layers,
    vocab_size]`; the default is the next-token distribution as one layer. A remote
    run goes through one `model.session`. A progress bar wraps the batches only when
    `tqdm=` is given.
    """
    check_model(model, "run_prompts")
    if isinstance(prompts, Prompt | str):
        raise TypeError(f"run_prompts takes a list of Prompt, got one {type(prompts).__name__}: pass [prompt]")
    prompts = list(prompts)
    if not prompts:
        raise ValueError("run_prompts needs at least one Prompt")
    for prompt in prompts:
        if not isinstance(prompt, Prompt):
            raise TypeError(
                f"run_prompts takes Prompt objects, got {type(prompt).__name__} {prompt!r:.60}; build one with "
                "Prompt.from_strings(text, {'target': ' word'}, model)"
            )
    names = list(prompts[0].target_tokens)
    for prompt in prompts:
        if list(prompt.target_tokens) != names:
            raise ValueError(
                f"every prompt must name the same targets: {prompt.prompt!r} names {list(prompt.target_tokens)}, "
                f"the first names {names}"
            )
    if len(prompts) > 1 and min(batch_size, len(prompts)) > 1:
        check_padding(model, -1)
    get_probs_func = get_probs_func or next_token_probs_unsqueeze
    func_kwargs = func_kwargs or {}
    batches = _batches(prompts, batch_size, tqdm)
    masses: dict[str, list[torch.Tensor]] = {name: [] for name in names}

    def collect(batch: list[Prompt]) -> None:
        probs = get_probs_func(model, [p.prompt for p in batch], remote=remote, **func_kwargs)
        for row, prompt in enumerate(batch):
            for name, mass in prompt.get_target_probs(probs[row]).items():
                masses[name].append(mass)

    if remote:
        with model.session(remote=remote):
            for batch in batches:
                collect(batch)
    else:
        for batch in batches:
            collect(batch)
    return {name: torch.stack(values) for name, values in masses.items()}


__all__ = ["Prompt", "TokenizationError", "get_first_tokens", "next_token_probs_unsqueeze", "run_prompts"]

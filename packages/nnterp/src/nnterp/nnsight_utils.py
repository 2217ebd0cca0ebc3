"""Activations and next-token distributions over many prompts, read through the standard values.

Every function reads `layer_output` (or the value `get_activations` picks) and
`next_token_probs`, so one call runs on every family.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import torch


def layer_output(model: Any, layer: int) -> Any:
    """The default `get_activations`: the stream leaving block `layer`."""
    return model.layers[layer].layer_output


def check_padding(model: Any, idx: int) -> None:
    """Refuse a token index that names different tokens in different rows under this tokenizer's padding.

    Raises:
        ValueError: a negative index with right padding, or a positive one with left padding.
    """
    side = getattr(model.tokenizer, "padding_side", "right")
    if idx < 0 and side != "left":
        raise ValueError(f"a negative token index needs left padding, and the tokenizer pads {side!r}")
    if idx > 0 and side != "right":
        raise ValueError(f"a positive token index needs right padding, and the tokenizer pads {side!r}")


def _layers(model: Any, layers: Iterable[int] | int | None) -> list[int]:
    if layers is None:
        return list(range(len(model.layers)))
    if isinstance(layers, int):
        return [layers]
    layers = list(layers)
    if not layers:
        raise ValueError("layers is empty: pass the block indices to read, or None for every block")
    return layers


def get_token_activations(
    model: Any,
    prompts: Any = None,
    layers: Iterable[int] | int | None = None,
    get_activations: Callable[[Any, int], Any] | None = None,
    remote: bool | str = False,
    idx: int | None = None,
    tracer: Any = None,
) -> torch.Tensor:
    """The activation at token `idx` of every prompt at each block of `layers`: `[len(layers), num_prompts, ...]`.

    Without `tracer=` it opens a trace, stops it after the last requested block and
    returns the result on the CPU. With `tracer=` it reads inside that open trace
    and returns the live tensor, for the caller to `.save()`.
    """
    idx = -1 if idx is None else idx
    check_padding(model, idx)
    layers = _layers(model, layers)
    get_activations = get_activations or layer_output
    if tracer is not None:
        return _read(model, layers, get_activations, idx)
    if prompts is None:
        raise ValueError("get_token_activations needs prompts, or tracer= to read inside a trace you have open")
    with model.trace(prompts, remote=remote) as opened:
        acts = _read(model, layers, get_activations, idx).cpu().save()
        if remote is False:
            opened.stop()
    return acts


def _read(model: Any, layers: list[int], get_activations: Callable[[Any, int], Any], idx: int) -> torch.Tensor:
    """Inside a trace: the values at token `idx`, read in forward (ascending block) order, stacked in `layers`' order."""
    rows: list[Any] = [None] * len(layers)
    for i in sorted(range(len(layers)), key=lambda i: layers[i]):
        rows[i] = get_activations(model, layers[i])[:, idx]
    return torch.stack(rows)


def collect_last_token_activations_session(
    model: Any,
    prompts: list,
    batch_size: int,
    layers: Iterable[int] | int | None = None,
    get_activations: Callable[[Any, int], Any] | None = None,
    remote: bool | str = False,
    idx: int | None = None,
    tqdm: Callable | None = None,
) -> torch.Tensor:
    """`get_token_activations` over batches of `prompts` inside one `model.session`: one request when remote."""
    idx = -1 if idx is None else idx
    check_padding(model, idx)
    layers = _layers(model, layers)
    batches = _batches(prompts, batch_size, tqdm)
    results = []
    with model.session(remote=remote):
        for batch in batches:
            with model.trace(batch):
                acts = get_token_activations(model, layers=layers, get_activations=get_activations, idx=idx, tracer=True)
                results.append(acts.cpu().save())
    return torch.cat(results, dim=1)


def collect_token_activations_batched(
    model: Any,
    prompts: list,
    batch_size: int,
    layers: Iterable[int] | int | None = None,
    get_activations: Callable[[Any, int], Any] | None = None,
    remote: bool | str = False,
    idx: int | None = None,
    tqdm: Callable | None = None,
    use_session: bool = True,
) -> torch.Tensor:
    """`get_token_activations` over batches, concatenated along the prompt axis.

    With `remote` and `use_session` the batches run in one `model.session`.
    """
    if remote and use_session:
        return collect_last_token_activations_session(model, prompts, batch_size, layers, get_activations, remote, idx, tqdm)
    results = [
        get_token_activations(model, batch, layers=layers, get_activations=get_activations, remote=remote, idx=idx)
        for batch in _batches(prompts, batch_size, tqdm)
    ]
    return torch.cat(results, dim=1)


def compute_next_token_probs(model: Any, prompt: Any, remote: bool | str = False) -> torch.Tensor:
    """`next_token_probs` per prompt, `[num_prompts, vocab_size]`, on the CPU."""
    if isinstance(prompt, list) and len(prompt) > 1:
        check_padding(model, -1)
    with model.trace(prompt, remote=remote):
        probs = model.next_token_probs.cpu().save()
    return probs


def _batches(prompts: list, batch_size: int, tqdm: Callable | None) -> Iterable[list]:
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    prompts = list(prompts)
    batches = [prompts[i : i + batch_size] for i in range(0, len(prompts), batch_size)]
    return tqdm(batches) if tqdm is not None else batches


__all__ = [
    "check_padding",
    "collect_last_token_activations_session",
    "collect_token_activations_batched",
    "compute_next_token_probs",
    "get_token_activations",
    "layer_output",
]


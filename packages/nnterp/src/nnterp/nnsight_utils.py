"""Activations and next-token distributions over many prompts, read through the standard values.

Every function reads `layer_output` (or the value `get_activations` picks) and
`next_token_probs`, so one call runs on every family.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable
from typing import Any

import torch


def layer_output(model: Any, layer: int) -> Any:
    """The default `get_activations`: the stream leaving block `layer`."""
    return model.layers[layer].layer_output


def check_model(model: Any, what: str) -> None:
    """Refuse a `model` argument that is not a loaded model (a repo id string, a tokenizer), naming `what` took it."""
    if callable(getattr(model, "trace", None)) and hasattr(model, "layers"):
        return
    shown = repr(model) if isinstance(model, str) else type(model).__name__
    fix = f"; load it first, model = StandardizedTransformer({model!r})" if isinstance(model, str) else ""
    raise TypeError(f"{what} takes a loaded StandardizedTransformer as its model, got {shown}{fix}")


#: The `idx` that reads the mean over each prompt's own tokens, its padding left out.
MEAN = "mean"


def default_idx(model: Any, idx: int | str | None) -> int | str:
    """`idx`, or the default position: the last token on a decoder, the first (`[CLS]`) on an encoder."""
    if idx is not None:
        return idx
    return 0 if getattr(getattr(model, "family", None), "ENCODER", False) else -1


def check_padding(model: Any, idx: int | str) -> None:
    """Refuse a token index that names different tokens in different rows under this tokenizer's padding.

    Raises:
        ValueError: a negative index with right padding, or an index of 0 or more with left padding
            (position 0 of a shorter, left-padded prompt is padding).
    """
    check_model(model, "check_padding")
    if idx == MEAN:  # every row's own real tokens, whatever the padding side
        return
    if not _is_int(idx):
        raise TypeError(
            f"idx={idx!r} is not a token position: pass an int (-1, the last token, on a decoder; 0, the first, "
            f"on an encoder) or {MEAN!r} for the mean over each prompt's tokens"
        )
    side = getattr(model.tokenizer, "padding_side", "right")
    if idx < 0 and side != "left":
        error = ValueError(f"a negative token index needs left padding, and the tokenizer pads {side!r}")
        _add_note(error, "load with tokenizer_kwargs={'padding_side': 'left'}, or pass a positive idx")
        raise error
    if idx > 0 and side != "right":
        error = ValueError(f"a positive token index needs right padding, and the tokenizer pads {side!r}")
        _add_note(
            error, "load with tokenizer_kwargs={'padding_side': 'right'}, or count from the end with a negative idx"
        )
        raise error
    if idx == 0 and side != "right":
        error = ValueError(
            f"token index 0 needs right padding, and the tokenizer pads {side!r}: in a batch, position 0 of every "
            "prompt shorter than the longest is padding"
        )
        _add_note(error, "load with tokenizer_kwargs={'padding_side': 'right'} to read each prompt's first token")
        raise error


def _add_note(error: Exception, fix: str) -> None:
    # The message stays the documented one; the fix shows under it in the traceback.
    if hasattr(error, "add_note"):
        error.add_note(f"fix: {fix}")


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _layers(model: Any, layers: Iterable[int] | int | None) -> list[int]:
    """The requested block indices, each checked for type and range before any trace opens."""
    count = len(model.layers)
    if layers is None:
        return list(range(count))
    layers = [layers] if _is_int(layers) else list(layers)
    if not layers:
        raise ValueError("layers is empty: pass the block indices to read, or None for every block")
    for index in layers:
        if not _is_int(index):
            raise TypeError(
                f"layers={layers!r} holds {index!r}, which is not a block index: pass ints from {-count} to {count - 1}"
            )
        if not -count <= index < count:
            raise IndexError(
                f"layers={layers!r} holds {index}, out of range for a model with {count} blocks: "
                f"pass ints from 0 to {count - 1} (or {-count} to -1 from the end)"
            )
    return layers


def get_token_activations(
    model: Any,
    prompts: Any = None,
    layers: Iterable[int] | int | None = None,
    get_activations: Callable[[Any, int], Any] | None = None,
    remote: bool | str = False,
    idx: int | str | None = None,
    tracer: Any = None,
) -> torch.Tensor:
    """The activation at token `idx` of every prompt at each block of `layers`: `[len(layers), num_prompts, ...]`.

    `idx` is a position, by default the last token on a decoder and the first (`[CLS]`)
    on an encoder, or `"mean"`: the mean over each prompt's own tokens, padding left out
    (the sentence vector of an encoder). Without `tracer=` it opens a trace, stops it
    after the last requested block and returns the result on the CPU. With `tracer=` it
    reads inside that open trace and returns the live tensor, for the caller to `.save()`.
    """
    check_model(model, "get_token_activations")
    idx = default_idx(model, idx)
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


def _read(model: Any, layers: list[int], get_activations: Callable[[Any, int], Any], idx: int | str) -> torch.Tensor:
    """Inside a trace: the values at token `idx`, read in forward (ascending block) order, stacked in `layers`' order."""
    rows: list[Any] = [None] * len(layers)
    count = len(model.layers)
    # The mask is the model's input, so it is read before any block.
    weights = _token_weights(model) if idx == MEAN else None
    for i in sorted(range(len(layers)), key=lambda i: layers[i] % count):
        value = get_activations(model, layers[i])
        if weights is not None:
            rows[i] = (value * weights[..., None].to(value.dtype)).sum(1)
            continue
        seq = value.shape[1]
        if not -seq <= idx < seq:
            raise IndexError(
                f"idx={idx} is out of range: the value read at block {layers[i]} has {seq} positions on axis 1 "
                f"(shape {tuple(value.shape)}); pass an idx from {-seq} to {seq - 1}"
            )
        rows[i] = value[:, idx]
    return torch.stack(rows)


def _token_weights(model: Any) -> torch.Tensor:
    """Each row's real tokens weighted one over their count, padding zero: `[batch, seq]`, summing to one per row."""
    mask = model.attention_mask.float()
    return mask / mask.sum(-1, keepdim=True)


def collect_last_token_activations_session(
    model: Any,
    prompts: list,
    batch_size: int,
    layers: Iterable[int] | int | None = None,
    get_activations: Callable[[Any, int], Any] | None = None,
    remote: bool | str = False,
    idx: int | str | None = None,
    tqdm: Callable | None = None,
) -> torch.Tensor:
    """`get_token_activations` over batches of `prompts` inside one `model.session`: one request when remote."""
    check_model(model, "collect_last_token_activations_session")
    idx = default_idx(model, idx)
    check_padding(model, idx)
    layers = _layers(model, layers)
    batches = _batches(prompts, batch_size, tqdm)
    results = []
    with model.session(remote=remote):
        for batch in batches:
            with model.trace(batch):
                acts = get_token_activations(
                    model, layers=layers, get_activations=get_activations, idx=idx, tracer=True
                )
                results.append(acts.cpu().save())
    return torch.cat(results, dim=1)


def collect_token_activations_batched(
    model: Any,
    prompts: list,
    batch_size: int,
    layers: Iterable[int] | int | None = None,
    get_activations: Callable[[Any, int], Any] | None = None,
    remote: bool | str = False,
    idx: int | str | None = None,
    tqdm: Callable | None = None,
    use_session: bool = True,
) -> torch.Tensor:
    """`get_token_activations` over batches, concatenated along the prompt axis.

    With `remote` and `use_session` the batches run in one `model.session`.
    """
    check_model(model, "collect_token_activations_batched")
    if remote and use_session:
        return collect_last_token_activations_session(
            model, prompts, batch_size, layers, get_activations, remote, idx, tqdm
        )
    results = [
        get_token_activations(model, batch, layers=layers, get_activations=get_activations, remote=remote, idx=idx)
        for batch in _batches(prompts, batch_size, tqdm)
    ]
    return torch.cat(results, dim=1)


def compute_next_token_probs(model: Any, prompt: Any, remote: bool | str = False) -> torch.Tensor:
    """`next_token_probs` per prompt, `[num_prompts, vocab_size]`, on the CPU."""
    check_model(model, "compute_next_token_probs")
    if isinstance(prompt, list) and len(prompt) > 1:
        check_padding(model, -1)
    with model.trace(prompt, remote=remote):
        probs = model.next_token_probs.cpu().save()
    return probs


def _batches(prompts: list, batch_size: int, tqdm: Callable | None) -> Iterable[list]:
    if isinstance(prompts, str):
        raise TypeError(
            f"prompts={_short(prompts)} is one string, and the batches take a list of prompts: a string would run as "
            "one prompt per character; pass [prompt]"
        )
    if not _is_int(batch_size) or batch_size < 1:
        raise ValueError(f"batch_size={batch_size!r}: pass an int of at least 1")
    prompts = list(prompts)
    batches = [prompts[i : i + batch_size] for i in range(0, len(prompts), batch_size)]
    return tqdm(batches) if tqdm is not None else batches


def _short(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


__all__ = [
    "check_model",
    "check_padding",
    "collect_last_token_activations_session",
    "MEAN",
    "collect_token_activations_batched",
    "compute_next_token_probs",
    "get_token_activations",
    "layer_output",
]

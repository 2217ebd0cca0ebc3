"""What a trace is given, checked before the model runs: the prompt's type, its token ids and its length.

nnsight takes a prompt as text, a list of texts, token ids (a tensor, a list of
ints or of lists of ints), an encoding (a `BatchEncoding` or a dict with
`input_ids`), chat messages, or media with a processor. A value outside those
forms, an id past the vocabulary, or a prompt longer than a family's learned
positions would fail inside the model with a message about concatenation or
`index out of range in self`; these checks name the prompt instead.
"""

from __future__ import annotations

import numbers
import weakref
from collections.abc import Mapping
from typing import Any

import torch

#: What a trace takes as its prompt, for the messages.
ACCEPTED = (
    "a string, a list of strings, token ids (an int tensor, a list of ints or of lists of ints), "
    "or an encoding with input_ids (tokenizer(...) output or a dict)"
)

# The config keys a learned position table is sized by.
_POSITION_KEYS = ("n_positions", "max_position_embeddings", "n_ctx")

# Per loaded module: the learned position limit, or None.
_LIMITS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def check_trace_input(model: Any, inputs: tuple, kwargs: dict) -> None:
    """Refuse a trace input nnsight would pass on to fail inside the model; nothing runs.

    Only the text task's forms are judged; another task's inputs (images, audio)
    go to nnsight as given.
    """
    data = inputs[0] if inputs else None
    if inputs and data is None and not _has_keyword_input(kwargs):
        raise ValueError(f"trace() needs a prompt, got None: pass {ACCEPTED}")
    if getattr(model, "task", "text-generation") != "text-generation":
        return
    _check_form(data)
    ids = _token_ids(data, kwargs)
    if ids is not None:
        _check_vocabulary(model, ids)
        _check_positions(model, ids.shape[-1] if ids.dim() else 1)
    elif isinstance(data, str) or (isinstance(data, (list, tuple)) and data and isinstance(data[0], str)):
        limit = position_limit(model)
        if limit is not None:
            texts = [data] if isinstance(data, str) else data
            _check_text_lengths(model, texts, limit)


def _has_keyword_input(kwargs: dict) -> bool:
    return any(kwargs.get(key) is not None for key in ("input_ids", "inputs_embeds", "text", "images", "pixel_values"))


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Number) and not isinstance(value, bool)


def _is_message(value: Any) -> bool:
    return isinstance(value, Mapping) and "role" in value


def _check_form(data: Any) -> None:
    """Refuse a prompt that is none of the text forms."""
    if data is None or isinstance(data, str):
        return
    if isinstance(data, (bool, numbers.Number)):
        raise TypeError(f"trace() got {type(data).__name__} {data!r} as its prompt; pass {ACCEPTED}")
    if isinstance(data, torch.Tensor):
        if data.is_floating_point() or data.dtype == torch.bool:
            raise TypeError(
                f"trace() got a {data.dtype} tensor as its prompt, and token ids are integers; pass a "
                "torch.long tensor of ids, or embeddings as trace(inputs_embeds=...)"
            )
        return
    if isinstance(data, Mapping):
        from nnsight.modeling.processing import ROW_FIELDS

        if not _is_message(data) and not any(key in data for key in ROW_FIELDS):
            raise TypeError(
                f"trace() got a dict with keys {sorted(map(str, data))} as its prompt, and none of them is "
                f"input_ids; pass {ACCEPTED}"
            )
        return
    if isinstance(data, (list, tuple)):
        if not data:
            return
        kinds = {_leaf_kind(item) for item in data}
        if "bad" in kinds or len(kinds) > 1:
            shown = next((item for item in data if _leaf_kind(item) == "bad"), data[0])
            raise TypeError(
                f"trace() got a list holding {type(shown).__name__} {shown!r}"
                + (" among other kinds" if len(kinds) > 1 and "bad" not in kinds else "")
                + f" as its prompt; pass {ACCEPTED}"
            )


def _leaf_kind(item: Any) -> str:
    """One element of a prompt list: text, ids, a message, another accepted object, or `bad`."""
    if isinstance(item, str):
        return "text"
    if isinstance(item, bool) or item is None:
        return "bad"
    if isinstance(item, numbers.Integral):
        return "id"
    if _is_number(item):
        return "bad"
    if isinstance(item, (list, tuple)):
        if item and all(isinstance(leaf, numbers.Integral) and not isinstance(leaf, bool) for leaf in item):
            return "ids"
        if item and all(_is_message(leaf) for leaf in item):
            return "chat"
        return "ids" if not item else "bad"
    if isinstance(item, torch.Tensor):
        return "bad" if item.is_floating_point() else "ids"
    if _is_message(item):
        return "message"
    if isinstance(item, Mapping):
        return "bad"
    return "other"  # an image or another object a processor may take


def _token_ids(data: Any, kwargs: dict) -> torch.Tensor | None:
    """The token ids of an ids or encoding input, as a tensor, else `None`."""
    from nnsight.modeling.processing import as_encoding

    try:
        encoding = as_encoding(data, kwargs)
    except Exception:  # nnsight's own check of an input it cannot read comes later, in its words
        return None
    ids = None if encoding is None else encoding.get("input_ids")
    if ids is None:
        return None
    if isinstance(ids, torch.Tensor):
        return ids
    try:
        return torch.as_tensor(ids)
    except (TypeError, ValueError):  # ragged lists of ids: each row on its own
        rows = [torch.as_tensor(row).reshape(-1) for row in ids]
        return torch.nn.utils.rnn.pad_sequence(rows, batch_first=True) if rows else None


def _vocabulary(model: Any) -> int:
    module = getattr(model, "_module", None)
    embedding = module.get_input_embeddings() if hasattr(module, "get_input_embeddings") else None
    count = getattr(embedding, "num_embeddings", None)
    return count if isinstance(count, int) else model.vocab_size


def _check_vocabulary(model: Any, ids: torch.Tensor) -> None:
    if ids.numel() == 0:
        return
    count = _vocabulary(model)
    low, high = int(ids.min()), int(ids.max())
    bad = high if high >= count else low if low < 0 else None
    if bad is not None:
        raise ValueError(
            f"token id {bad} is out of range: this model's vocabulary holds {count} ids, 0 to {count - 1}; "
            "pass ids from model.tokenizer"
        )


def position_limit(model: Any) -> int | None:
    """How many positions the family's learned position table holds, or `None` where it has none (rotary, ALiBi).

    A learned table is an embedding beside the token embedding, sized by the config's
    `n_positions` or `max_position_embeddings` (OPT's adds an offset of 2).
    """
    module = getattr(model, "_module", None)
    if not isinstance(module, torch.nn.Module):
        return None
    if module in _LIMITS:
        return _LIMITS[module]
    config = getattr(module, "config", None)
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    sizes = {getattr(text, key, None) for key in _POSITION_KEYS} - {None}
    tokens = module.get_input_embeddings() if hasattr(module, "get_input_embeddings") else None
    limit = None
    for child in module.modules():
        if isinstance(child, torch.nn.Embedding) and child is not tokens:
            size = child.num_embeddings - getattr(child, "offset", 0)
            if size in sizes:
                limit = size
                break
    _LIMITS[module] = limit
    return limit


def _check_positions(model: Any, length: int) -> None:
    limit = position_limit(model)
    if limit is not None and length > limit:
        raise ValueError(
            f"the prompt is {length} tokens long, and this model's learned positions stop at {limit} "
            f"(its config's position size); pass at most {limit} tokens"
        )


def _check_text_lengths(model: Any, texts: list, limit: int) -> None:
    tokenizer = getattr(model, "tokenizer", None)
    if tokenizer is None:
        return
    for text in texts:
        # A token covers at least one byte, so a short text needs no tokenizing (4 spare for special tokens).
        if not isinstance(text, str) or len(text.encode("utf-8")) + 4 <= limit:
            continue
        _check_positions(model, len(tokenizer(text)["input_ids"]))

"""The root: `StandardizedTransformer`, the whole-model values, the sizes and the methods.

`Standardized` is the engine-independent part (sizes, `support()`, `steer`,
`skip_layers`, the token helpers); `StandardizedTransformer` mixes it over nnsight's
`TransformersModel`. Nothing here names an operation inside a forward or a family's
config keys: those live in the family modules.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import numbers
import os
import struct
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import torch
from jaxtyping import Bool, Float, Int
from nnsight import TransformersModel
from nnsight.intervention.envoy import Envoy
from torch import Tensor

from . import contract, families
from .components import (
    BATCH,
    DEFAULT_HEAD,
    MASK_TOKENS,
    SEQ,
    VOCAB,
    Attention,
    DerivedEProperty,
    EProperty,
    LogitLens,
    Mlp,
    Residual,
    Unavailable,
    blocks_rows,
    blocks_support,
    named_layout,
)
from .components.eproperty import mark_skipped
from .components.names import not_available
from .components.regrouped import Regrouping
from .components.standard import Plain
from .components.vision import tower_rows
from .encoders import (
    accept_prompts_without_mask,
    call_mask,
    is_encoder,
    keep_call_ids,
    mask_token_id,
    no_head,
    no_mask_predictions,
    no_next_token,
    not_an_encoder,
    of_its_kind,
    refuse_generate,
)
from .families import default as default_family
from .inputs import check_trace_input
from .load_keywords import check_load_keywords
from .order import probe_order
from .trace_keywords import check_params_only, check_trace_keywords
from .tracer import Tracer

# The logits over the vocabulary at every position.
Logits = named_layout("Logits", Float[Tensor, f"{BATCH} {SEQ} {VOCAB}"])
# The next-token distribution at the last position.
NextTokenProbs = named_layout("NextTokenProbs", Float[Tensor, f"{BATCH} {VOCAB}"])
# Token ids, or the attention mask over them.
Tokens = named_layout("Tokens", Int[Tensor, f"{BATCH} {SEQ}"])
# Which positions of an encoder's input hold the mask token.
MaskTokenMask = named_layout("MaskTokenMask", Bool[Tensor, f"{BATCH} {SEQ}"])
# The distribution at each mask token of the batch, row by row and left to right.
MaskTokenProbs = named_layout("MaskTokenProbs", Float[Tensor, f"{MASK_TOKENS} {VOCAB}"])

#: The modules every decoder block is described with, and the values each serves: `support()` lists
#: their keys on every family, a module no block has (Mamba's `mlp`) with the reason.
STANDARD_MODULES = {"self_attn": Attention, "mlp": Mlp}

SIZES = (
    "num_layers",
    "hidden_size",
    "vocab_size",
    "num_heads",
    "num_kv_heads",
    "head_dim",
    "qk_head_dim",
    "intermediate_size",
)


class FromLogits(DerivedEProperty):
    """A value derived from the logits: assigning it points at `model.logits`."""

    def __set__(self, obj: Any, value: Any) -> None:
        raise AttributeError(
            f"{self.name} is derived from the logits and cannot be assigned; assign model.logits instead"
        )


class _FamilyValue(EProperty):
    """A root value a family may read elsewhere, or lack, with a module-level value of the same name.

    The family module assigns `final_norm_output = unavailable("reason")` where the
    model has no such module, or `final_norm_output = EProperty(key)` where the
    standard module's first call is not the value (a norm the forward calls twice).
    """

    def _own(self, obj: Any) -> EProperty | None:
        own = getattr(getattr(obj, "family", None), self.name, None)
        return own if isinstance(own, EProperty) else None

    def reason(self, obj: Any) -> str | None:
        own = self._own(obj)
        return super().reason(obj) if own is None else own.reason(obj)

    def _key(self, obj: Any) -> str:
        own = self._own(obj)
        return super()._key(obj) if own is None else own._key(obj)

    def _select(self, obj: Any) -> Any:
        own = self._own(obj)
        return super()._select(obj) if own is None else own._select(obj)

    def _served(self, obj: Any) -> EProperty | None:
        """The family's value when it maps the tensor itself (XLNet's sequence-first embedding), else `None`."""
        own = self._own(obj) if obj is not None else None
        return own if own is not None and own._preprocess is not None else None

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        own = self._served(obj)
        return super().__get__(obj, owner) if own is None else own.__get__(obj, owner)

    def __set__(self, obj: Any, value: Any) -> None:
        own = self._served(obj)
        if own is None:
            super().__set__(obj, value)
        else:
            own.__set__(obj, value)


class _FamilyLookup:
    """A root attribute a family may replace with a module-level function of the same name."""

    def __init__(self, default: Callable) -> None:
        self.default = default
        self.__doc__ = default.__doc__
        self.name = default.__name__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def own(self, obj: Any) -> Callable | None:
        """The family's function of this name, or `None`."""
        found = getattr(obj.family, self.name, None)
        return found if callable(found) else None


class StandardizedProperty(_FamilyLookup):
    """A root size: the family's `def <size>(model)` when it defines one, else the plain rule. Read-only."""

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        return (self.own(obj) or self.default)(obj)

    def __set__(self, obj: Any, value: Any) -> None:
        raise AttributeError(
            f"{self.name} is read off the config and cannot be assigned; "
            f"a family defines `def {self.name}(model)` in its module to say it otherwise"
        )


class StandardizedCapability(_FamilyLookup):
    """A root method: the family's `def <name>(model, ...)` when it defines one, else the default."""

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        return partial(self.own(obj) or self.default, obj)


class _HiddenCapability(StandardizedCapability):
    """A root method over a residual-stream tensor: its last axis is checked before the family's function runs."""

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        method = super().__get__(obj, owner)
        name = self.name

        def checked(hidden: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(hidden, torch.Tensor):
                _check_width(hidden, obj.hidden_size, f"{name}(hidden)", "[..., hidden_size]")
            return method(hidden, *args, **kwargs)

        checked.__doc__ = method.func.__doc__
        return checked


def _text_config(model: Any) -> Any:
    config = model.config
    return config.get_text_config() if hasattr(config, "get_text_config") else config


def _size(name: str, doc: str):
    def rule(model: Any) -> int:
        return getattr(_text_config(model), name)

    rule.__name__ = name
    rule.__doc__ = doc
    return rule


_DEFAULT_LENS = LogitLens(softcap="final_logit_softcapping")


def default_project_on_vocab(model: Any, hidden: Any) -> Any:
    """Logits for a residual-stream tensor: the final norm, `lm_head`, then the text config's softcap if it sets one."""
    if model.family is default_family:
        raise Unavailable(not_available(model, "project_on_vocab", DEFAULT_HEAD))
    return _DEFAULT_LENS(model, hidden)


class Standardized:
    """The engine-independent root: the sizes, `support()`, and the methods over the standard values."""

    family: Any

    # -- sizes ------------------------------------------------------------------

    @StandardizedProperty
    def num_layers(self) -> int:
        """The number of blocks, `len(model.layers)`."""
        return len(self.layers)

    hidden_size = StandardizedProperty(_size("hidden_size", "The residual stream's width, `config.hidden_size`."))
    vocab_size = StandardizedProperty(_size("vocab_size", "The vocabulary size, `config.vocab_size`."))
    num_heads = StandardizedProperty(_size("num_attention_heads", "The query heads, `config.num_attention_heads`."))
    intermediate_size = StandardizedProperty(_size("intermediate_size", "The MLP width, `config.intermediate_size`."))

    @StandardizedProperty
    def num_kv_heads(self) -> int:
        """The key/value heads: `config.num_key_value_heads`, else `num_heads`."""
        return getattr(_text_config(self), "num_key_value_heads", None) or self.num_heads

    @StandardizedProperty
    def head_dim(self) -> int:
        """One head's width: `config.head_dim` when set, else `hidden_size // num_heads`.

        Where the config holds the width per block and refuses a model-wide read, the
        blocks' attentions answer: their one width, or a `ValueError` naming each where
        they differ.
        """
        config = _text_config(self)
        try:
            width = getattr(config, "head_dim", None)
        except Exception:  # transformers refuses a model-wide read of a per-layer size
            widths = {
                index: block.self_attn.head_dim
                for index, block in enumerate(self.layers)
                if isinstance(block.__dict__.get("self_attn"), Attention)
            }
            if len(set(widths.values())) == 1:
                return next(iter(widths.values()))
            raise ValueError(
                f"head_dim differs per block on this model ({widths}): read model.layers[i].self_attn.head_dim"
            ) from None
        return width or self.hidden_size // self.num_heads

    @StandardizedProperty
    def qk_head_dim(self) -> int:
        """One head's query/key width: `head_dim` unless the family separates them."""
        return self.head_dim

    # -- availability -------------------------------------------------------------

    def support(self, layer: int | None = None) -> dict[str, Any]:
        """Which values this checkpoint has, from the config and the module tree; nothing runs.

        Without `layer`: the root's values (an encoder's mask values on an encoder only), then every block value by
        dotted name,
        `None` when every block has it, else `{layer: reason}`. With `layer`: that
        block's values, flat. Both list every block value of the family, those of a
        module this block or every block lacks (a hybrid's `self_attn`, Mamba's `mlp`)
        included, with the reason.
        """
        if layer is not None:
            index = layer_index(layer, len(self.layers), "layer")
            return blocks_rows(self.layers, STANDARD_MODULES)[index]
        rows = {name: attr.reason(self) for name, attr in _root_values(type(self)).items() if of_its_kind(self, name)}
        rows.update(blocks_support(self.layers, STANDARD_MODULES))
        rows.update(tower_rows(self))
        return rows

    # -- methods ------------------------------------------------------------------

    def skip_layers(self, start: int, end: int, skip_with: Any = None) -> None:
        """Blocks `start` to `end` (inclusive, negatives from the end) do not run.

        Block `end + 1` receives the stream entering block `start`, or `skip_with`
        (`[batch, seq, hidden_size]`) when given. Call it inside a trace, before block
        `start` runs; it reads `layers[start].input` itself.
        """
        count = len(self.layers)
        start, end = layer_index(start, count, "skip_layers start"), layer_index(end, count, "skip_layers end")
        if start > end:
            raise ValueError(
                f"skip_layers({start}, {end}): start comes after end; pass the first and the last skipped block "
                "in ascending order, start <= end (both inclusive)"
            )
        if skip_with is not None:
            _check_width(skip_with, self.hidden_size, "skip_layers(skip_with=...)", "[batch, seq, hidden_size]")
        stream = self.layers[start].layer_input if skip_with is None else skip_with
        for index in range(start, end + 1):
            block = self.layers[index]
            block.skip(block.skip_with(stream) if hasattr(block, "skip_with") else stream)
            mark_skipped(block, index, start, end)

    def steer(
        self,
        layers: int | list[int],
        vector: Any,
        factor: float = 1.0,
        token_positions: int | list[int] | slice | None = None,
        batch_index: int | list[int] | slice | None = None,
    ) -> None:
        """Add `factor * vector` to `layer_output` of each block in `layers`, in place.

        `layers` is an int or an ascending list. `vector` is `[hidden_size]` or
        broadcastable to the selected slice, cast to the stream's dtype and device.
        `token_positions` and `batch_index` restrict the add; both default to all.
        """
        count = len(self.layers)
        listed = [layers] if _is_index(layers) else list(layers)
        resolved = [layer_index(index, count, "steer(layers=...)") for index in listed]
        if any(b <= a for a, b in zip(resolved, resolved[1:])):
            raise ValueError(
                f"steer() takes the layers in ascending order, since a trace reads blocks in forward order; "
                f"got {listed}: pass sorted(set(layers))"
            )
        if not isinstance(vector, torch.Tensor):
            raise TypeError(
                f"steer(vector=...) takes a tensor, got {type(vector).__name__}; pass torch.tensor(...) of width "
                f"hidden_size={self.hidden_size}"
            )
        _check_width(vector, self.hidden_size, "steer(vector=...)", "[hidden_size] or broadcastable to the slice")
        if not isinstance(factor, numbers.Real | torch.Tensor) or isinstance(factor, bool):
            raise TypeError(
                f"steer(factor={factor!r}) takes a number, got {type(factor).__name__}; pass e.g. factor=2.0"
            )
        for index in resolved:
            stream = self.layers[index].layer_output
            _check_positions(token_positions, stream.shape[1], "steer(token_positions=...)")
            _check_positions(batch_index, stream.shape[0], "steer(batch_index=...)")
            rows = _selector(batch_index)
            cols = _selector(token_positions)
            if isinstance(rows, list) and isinstance(cols, list):
                rows = torch.tensor(rows)[:, None]
                cols = torch.tensor(cols)[None, :]
            if vector.dim() > 1:
                _check_broadcast(vector, tuple(stream[rows, cols].shape), index)
            stream[rows, cols] += factor * vector.to(device=stream.device, dtype=stream.dtype)

    def probs_to_dict(self, probs: Any, k: int = 5) -> dict[str, float]:
        """The `k` most likely tokens of one `[vocab_size]` distribution, most likely first.

        Keys are decoded text; where two of the `k` decode alike, those are keyed by the
        tokenizer's vocabulary token instead. A row with a negative value or a sum away
        from 1, such as logits, is refused.
        """
        if probs.dim() != 1:
            raise ValueError(
                f"probs_to_dict takes one [vocab_size] distribution, got shape {tuple(probs.shape)}; "
                "index a row first, e.g. probs[0]"
            )
        if not _is_index(k) or not 1 <= k <= probs.shape[-1]:
            raise ValueError(
                f"probs_to_dict(k={k!r}): k is an int from 1 to the distribution's size, {probs.shape[-1]}"
            )
        _check_distribution(probs)
        top = probs.detach().float().topk(k)
        ids = top.indices.tolist()
        texts = [self.tokenizer.decode([token]) for token in ids]
        raw = self.tokenizer.convert_ids_to_tokens(ids)
        clashes = {text for text in texts if texts.count(text) > 1}
        keys = [raw[i] if text in clashes else text for i, text in enumerate(texts)]
        return {key: value for key, value in zip(keys, top.values.tolist())}

    def get_topk_closest_tokens(self, hidden: Any, k: int = 5) -> list[dict[str, float]]:
        """`project_on_vocab`, softmax, then the `k` most likely tokens for each position of `hidden`.

        Always a list of one dict per row of `hidden.reshape(-1, hidden_size)`.
        """
        _check_width(hidden, self.hidden_size, "get_topk_closest_tokens(hidden)", "[..., hidden_size]")
        logits = self.project_on_vocab(hidden.reshape(-1, hidden.shape[-1]))
        probs = logits.float().softmax(-1)
        return [self.probs_to_dict(row, k=k) for row in probs]

    project_on_vocab = _HiddenCapability(default_project_on_vocab)


def _is_index(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def layer_index(index: Any, count: int, name: str) -> int:
    """`index` as a block number in `0..count-1`, negatives from the end; refuses another type or range.

    `name` is how the caller's argument is spelled in the error (``"steer(layers=...)"``).
    """
    if not _is_index(index):
        raise TypeError(f"{name}={index!r} is not a block index: pass an int from {-count} to {count - 1}")
    resolved = index + count if index < 0 else int(index)
    if not 0 <= resolved < count:
        raise IndexError(
            f"{name}={index} is out of range: this model has {count} blocks, so pass an int from 0 to {count - 1} "
            f"(or {-count} to -1 from the end)"
        )
    return resolved


def _check_width(tensor: Any, width: int, what: str, layout: str) -> None:
    """Refuse a tensor whose last axis is not `width` (the residual stream's), before anything runs."""
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"{what} takes a tensor {layout}, got {type(tensor).__name__}")
    if tensor.dim() == 0 or tensor.shape[-1] != width:
        raise ValueError(
            f"{what} has shape {tuple(tensor.shape)}, and its last axis must be hidden_size={width} ({layout}); "
            f"pass a tensor whose last axis is {width}"
        )


def _check_distribution(probs: Any) -> None:
    """Refuse a row that is not a probability distribution: a negative value, or a sum away from 1 (logits)."""
    row = probs.detach().float()
    total, lowest = row.sum().item(), row.min().item()
    # A half-precision softmax sums to 1 within its rounding, well inside the tolerance.
    if lowest < 0 or abs(total - 1) > 0.02:
        raise ValueError(
            f"probs_to_dict takes a probability distribution, and this row sums to {total:.4g} with a smallest value "
            f"of {lowest:.4g}, so it is not one (logits?); pass logits.softmax(-1), or read model.next_token_probs"
        )


def _check_broadcast(vector: Tensor, target: tuple, layer: int) -> None:
    """Refuse a steering vector that does not broadcast to the slice it is added to."""
    try:
        fits = torch.broadcast_shapes(tuple(vector.shape), target) == target
    except RuntimeError:
        fits = False
    if not fits:
        raise ValueError(
            f"steer(vector=...) has shape {tuple(vector.shape)}, which does not broadcast to the steered slice of "
            f"layers[{layer}].layer_output, {target}; pass a [hidden_size] vector, or one broadcastable to {target}"
        )


def _check_positions(select: Any, size: int, what: str) -> None:
    """Refuse an int, list of ints or slice that selects a position outside an axis of `size`, or none at all."""
    if select is None:
        return
    if isinstance(select, slice):
        bounds = [bound for bound in (select.start, select.stop) if bound is not None]
        for bound in bounds:
            if not _is_index(bound):
                raise TypeError(f"{what}={select!r} holds {bound!r}: a slice of ints selects positions")
        if any(not -size <= bound <= size for bound in bounds):
            raise IndexError(
                f"{what}={select!r} runs past an axis of size {size}: pass slice bounds from {-size} to {size}"
            )
        if not range(size)[select]:
            raise IndexError(
                f"{what}={select!r} selects no position of an axis of size {size}: pass a slice that selects one, "
                "or None for all"
            )
        return
    items = [select] if _is_index(select) else list(select)
    if not items:
        raise IndexError(
            f"{what}={select!r} selects no position: pass ints from {-size} to {size - 1}, or None for all"
        )
    for item in items:
        if not _is_index(item):
            raise TypeError(f"{what} holds {item!r}: pass ints, a list of ints, or a slice")
        if not -size <= item < size:
            raise IndexError(
                f"{what}={select!r} is out of range for an axis of size {size}: pass {-size} to {size - 1}"
            )


def _selector(select: Any) -> Any:
    if select is None:
        return slice(None)
    if isinstance(select, tuple):
        return list(select)
    return select


def _root_values(cls: type) -> dict[str, EProperty]:
    found: dict[str, EProperty] = {}
    for klass in reversed(cls.__mro__):
        for name, attr in vars(klass).items():
            if isinstance(attr, EProperty):
                found[name] = attr
    return found


def _read_config(repo_id: Any, kwargs: dict) -> Any:
    """The checkpoint's config: a ready module's own, else read with the call's revision and trust_remote_code."""
    if isinstance(repo_id, torch.nn.Module):
        config = getattr(repo_id, "config", None)
        if config is None:
            raise ValueError(
                f"StandardizedTransformer wraps a transformers model with a `config`; {type(repo_id).__name__} has none. "
                "Pass family= to say how to standardize it, or load it from a checkpoint"
            )
        return config
    from transformers import AutoConfig

    options = {key: kwargs[key] for key in ("revision", "trust_remote_code") if key in kwargs}
    return AutoConfig.from_pretrained(repo_id, **options)


def family_model_type(config: Any, source: Any = None, engine: str | None = None) -> str:
    """The type whose family serves `config`: a wrapper's text type, unless the wrapper's own type has a family.

    A wrapper's own module (`idefics3`, `llava`) composes its text family with its tower,
    so the text family maps no wrapper's classes.
    """
    text = getattr(config, "text_config", None)
    if text is not None and getattr(text, "model_type", None):
        own = getattr(config, "model_type", None)
        return own if own and families.has_family(own, engine) else text.model_type
    model_type = getattr(config, "model_type", None)
    if not model_type:
        raise ValueError(
            f'the config of {_label(source)} has no model_type, which picks the family; add "model_type": "<type>" '
            "to its config.json, or pass family= (e.g. family=nnterp.families.llama)"
        )
    return model_type


class _Fields:
    """A config.json's top level read as attributes, as `family_model_type` reads a config."""

    def __init__(self, data: dict) -> None:
        self.model_type = data.get("model_type")
        self.custom = "auto_map" in data
        text = data.get("text_config")
        self.text_config = _Fields(text) if isinstance(text, dict) else None


def _text_wrapper(config: Any, task: str, source: Any, kwargs: dict) -> tuple[type, type] | None:
    """(config class, model class) for a default-task load of a type with no causal-LM class.

    Transformers' pipeline, which a dispatched load goes through, falls back to the
    class the checkpoint's `architectures` names (Llava's wrapper, Mistral 4's causal
    LM, ...), or to the type's image-text-to-text class, with no processor. The meta
    build of a lazy load asks the causal-LM auto class alone, which has no entry for
    the type; `_load_meta` lends it this class, so both loads build the same model.
    `config` is `None` where nothing read it before (a Hub id loaded with `family=`),
    and it is read here then, since the dispatched load falls back all the same.
    """
    if task != "text-generation" or isinstance(source, torch.nn.Module):
        return None
    if config is None:
        config = _read_config(source, kwargs)
    model_type = getattr(config, "model_type", None)
    if not model_type:
        return None
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING,
        MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES,
    )

    if model_type not in MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES or model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
        return None
    if isinstance(config, _Fields):
        config = _read_config(source, kwargs)
    import transformers

    named = [getattr(transformers, name, None) for name in getattr(config, "architectures", None) or ()]
    chosen = next((cls for cls in named if isinstance(cls, type)), None)
    return type(config), chosen or MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING[type(config)]


@contextlib.contextmanager
def _lent_to_causal_lm(pair: tuple[type, type] | None) -> Iterator[None]:
    """Register the wrapper under the causal-LM auto class for the meta build, and take it back after."""
    if pair is None:
        yield
        return
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING as mapping

    # The mapping's table of registered classes, written directly: `register` refuses a config class of
    # transformers' own on the older releases (it keeps that for remote code), and the auto class's
    # `register` refuses a model whose config class is the text one (Mistral 4's causal LM).
    extra = getattr(mapping, "_extra_content", None)
    if extra is None or pair[0] in extra:
        yield
        return
    extra[pair[0]] = pair[1]
    try:
        yield
    finally:
        extra.pop(pair[0], None)


class _UnsupportedForText:
    """Drops the pipeline's log of a class it does not list for text generation, keeping the class names."""

    def __init__(self) -> None:
        self.classes: list[str] = []

    def filter(self, record: Any) -> bool:
        message = record.getMessage()
        if "is not supported for text-generation" not in message:
            return True
        self.classes.append(message.split("'")[1] if message.count("'") >= 2 else "this model")
        return False


@contextlib.contextmanager
def _wrapper_notice() -> Iterator[None]:
    """Say in one warning that a wrapper loads for text without its processor, in place of the pipeline's log.

    The pipeline logs every class it supports (kilobytes of names) when a default-task
    load falls back to a vision-language wrapper; the fix is the task.
    """
    import logging
    import warnings

    logger = logging.getLogger("transformers.pipelines.base")
    dropped = _UnsupportedForText()
    logger.addFilter(dropped)
    try:
        yield
    finally:
        logger.removeFilter(dropped)
    for name in dict.fromkeys(dropped.classes):
        warnings.warn(
            f"{name} is a vision-language wrapper with no text-only class, loaded for text without its processor, "
            'so no image can reach it; load it with task="image-text-to-text" to pass images',
            stacklevel=4,
        )


def _label(source: Any) -> str:
    return repr(source) if isinstance(source, (str, os.PathLike)) else type(source).__name__


class BlockList(Envoy):
    """The envoy of the block list: an index is checked for type and range before it is looked up."""

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, (slice, str)):
            return super().__getitem__(key)
        count = len(self)
        if not _is_index(key):
            raise TypeError(
                f"layers[{key!r}]: a block index is an int from {-count} to {count - 1}, or a slice; "
                f"got {type(key).__name__}"
            )
        if not -count <= key < count:
            raise IndexError(
                f"layers[{key}] is out of range: {self.path} holds {count} blocks, so index it with 0 to {count - 1} "
                f"(or {-count} to -1 from the end)"
            )
        return super().__getitem__(int(key))


#: nnterp 1.x keywords and what replaces each in 2.x.
LEGACY_KEYWORDS = {
    "enable_attention_probs": "attn_implementation='eager' at load, and model.support() to ask for the pattern",
    "check_renaming": "nothing: nnterp 2 runs nothing at construction, so remove it",
    "allow_dispatch": "nothing: nnterp 2 runs nothing at construction, so remove it",
    "check_attn_probs_with_trace": "nothing: nnterp 2 runs nothing at construction, so remove it",
    "allow_multimodal": "nothing: a vision-language checkpoint loads with task='image-text-to-text'",
    "rename_config": "rename=, envoys=, family= or nnterp.families.register",
    "remote": "model.trace(prompt, remote=True): remote belongs on the trace",
}


#: The tasks a load serves: the causal LM, a vision-language wrapper with its processor, and an encoder under its
#: masked-LM head or bare.
TASKS = ("text-generation", "image-text-to-text", "fill-mask", "feature-extraction")
#: The tasks of a family that declares `ENCODER`: its masked-LM head (the default), or the bare encoder.
ENCODER_TASKS = ("fill-mask", "feature-extraction")


def _check_task(task: Any) -> None:
    """Refuse a task whose head is not a language-model head: `logits` would not be over the vocabulary."""
    if not isinstance(task, str) or task not in TASKS:
        raise ValueError(
            f"task={task!r} is not a task StandardizedTransformer serves: its logits, next_token_probs and "
            f"project_on_vocab are over the vocabulary, which needs a language-model head; pass "
            f"task='text-generation' (the default) or task='image-text-to-text' for a vision-language checkpoint, "
            f"and task='fill-mask' (the default) or task='feature-extraction' for an encoder such as BERT"
        )


def _task_for(family: Any, kwargs: dict) -> str:
    """The load's task: the caller's, checked against the family, else the family's default."""
    encoder = is_encoder(family)
    task = kwargs.setdefault("task", ENCODER_TASKS[0] if encoder else "text-generation")
    _check_task(task)
    name = getattr(family, "__name__", "this").rsplit(".", 1)[-1]
    if encoder and task not in ENCODER_TASKS:
        raise ValueError(
            f"task={task!r}: the {name} family is a bidirectional encoder, which predicts masked positions and has "
            "no next token; load it with task='fill-mask' (the default, its masked-LM head) or "
            "task='feature-extraction' (the bare encoder, for probing)"
        )
    if not encoder and task in ENCODER_TASKS:
        raise ValueError(
            f"task={task!r} is an encoder's task, and the {name} family is not an encoder; load it with "
            "task='text-generation' (the default)"
        )
    return task


def _refuse_legacy_keywords(kwargs: dict) -> None:
    """Refuse an nnterp 1.x keyword at construction with its 2.x spelling (it would reach the checkpoint's class)."""
    found = [name for name in LEGACY_KEYWORDS if name in kwargs]
    if found:
        lines = "; ".join(f"{name}= is now {LEGACY_KEYWORDS[name]}" for name in found)
        raise TypeError(f"StandardizedTransformer got nnterp 1.x keyword(s) {found}: {lines}")


def _looks_local(repo_id: str) -> bool:
    # A Hub id is 'name' or 'namespace/name'; anything else is meant as a path.
    return (
        os.path.isabs(repo_id)
        or repo_id.startswith(("./", "../", "~", ".\\", "..\\"))
        or repo_id.count("/") > 1
        or "\\" in repo_id
    )


def _missing_path(repo_id: str) -> str:
    """Where a local path stops existing: the first missing part, and the close names beside it."""
    path = os.path.normpath(os.path.expanduser(repo_id))
    parent = os.path.dirname(path)
    while parent and not os.path.isdir(parent) and os.path.dirname(parent) != parent:
        path, parent = parent, os.path.dirname(parent)
    where = parent or "."
    if not os.path.isdir(where):
        return f"{where!r} does not exist"
    name = os.path.basename(path)
    close = difflib.get_close_matches(name, sorted(os.listdir(where)), n=3, cutoff=0.6)
    near = f" (close: {', '.join(repr(c) for c in close)})" if close else ""
    return f"{where!r} holds no {name!r}{near}"


def _offline_uncached(repo_id: str, revision: str | None) -> bool:
    """Whether the Hub cannot answer for `repo_id`: offline, with no config.json of it in the cache."""
    if os.environ.get("HF_HUB_OFFLINE", "0") in ("", "0", "false", "False"):
        return False
    from huggingface_hub import try_to_load_from_cache

    try:
        found = try_to_load_from_cache(repo_id, "config.json", revision=revision)
    except Exception:  # an id the Hub would refuse is not in its cache either
        return True
    return not isinstance(found, str)


def _check_source(repo_id: Any, needs_type: bool = True, revision: str | None = None) -> _Fields | None:
    """Refuse a missing local path and a damaged local checkpoint before anything is built.

    A string is taken for a local path when it reads as one, when its first part
    exists here (`checkpoints/gpt2` beside a `checkpoints` folder), or when it names
    a `namespace/name` the Hub cannot answer for offline. Returns a local
    checkpoint's config.json fields, else `None`.
    """
    if isinstance(repo_id, os.PathLike):
        repo_id = os.fspath(repo_id)
    if not isinstance(repo_id, str):
        return None
    if not os.path.exists(repo_id):
        first = repo_id.replace("\\", "/").split("/", 1)[0]
        nested = "/" in repo_id.replace("\\", "/")
        local = _looks_local(repo_id) or (nested and os.path.isdir(first))
        if local or (nested and _offline_uncached(repo_id, revision)):
            offline = "" if local else ", and offline (HF_HUB_OFFLINE) the Hub cache holds no such id"
            raise FileNotFoundError(
                f"no checkpoint at {repo_id!r}: as a local path, {_missing_path(repo_id)}{offline}; check the path, "
                "or pass a Hub id of the form 'name' or 'namespace/name'"
            )
        return None
    if not os.path.isdir(repo_id):
        raise NotADirectoryError(
            f"repo_id={repo_id!r} is a file; pass the checkpoint's directory, the one holding config.json"
        )
    config = os.path.join(repo_id, "config.json")
    if not os.path.isfile(config):
        raise FileNotFoundError(
            f"{repo_id!r} holds no config.json, so it is not a transformers checkpoint; pass the directory "
            "save_pretrained wrote, or a Hub id"
        )
    try:
        with open(config, encoding="utf-8") as handle:
            data = json.load(handle)
    except ValueError as error:
        raise ValueError(
            f"{config} is not valid JSON ({error}); the checkpoint is corrupt or truncated: download or save it again"
        ) from error
    fields = _Fields(data) if isinstance(data, dict) else None
    if needs_type and fields is not None:
        family_model_type(fields, repo_id)
    for name in sorted(os.listdir(repo_id)):
        if name.endswith(".safetensors"):
            _check_safetensors(os.path.join(repo_id, name))
    return fields


def _check_safetensors(path: str) -> None:
    """Refuse a safetensors file whose header does not describe its length: cut short or overwritten."""
    size = os.path.getsize(path)
    fix = "the checkpoint is corrupt or truncated: download or save it again"
    try:
        with open(path, "rb") as handle:
            (length,) = struct.unpack("<Q", handle.read(8))
            if length > size - 8:
                raise ValueError(f"its header claims {length} bytes")
            header = json.loads(handle.read(length))
    except (struct.error, ValueError, UnicodeDecodeError) as error:
        raise ValueError(f"{path} is not a readable safetensors file ({error}); {fix}") from error
    ends = [entry["data_offsets"][1] for key, entry in header.items() if key != "__metadata__"]
    expected = 8 + length + max(ends, default=0)
    if size != expected:
        raise ValueError(f"{path} holds {size} bytes and its header describes {expected}; {fix}")


def _check_family(family: Any) -> None:
    for attribute in ("RENAME", "ENVOYS"):
        if not hasattr(family, attribute):
            hint = ""
            if isinstance(family, str):
                hint = f" (for the shipped family, pass nnterp.families.lookup({family!r}))"
            raise TypeError(
                f"family= takes a family: a module or object with RENAME and ENVOYS, and {family!r} has no "
                f"{attribute}; pass a family module such as nnterp.families.llama{hint}, or leave family= out "
                "to pick it from the config's model_type"
            )
    contract.validate(family)


def _check_rename_keys(model: Any, rename: dict | None) -> None:
    """Refuse a caller's `rename=` key that names no module, which nnsight would ignore silently."""
    if not rename:
        return
    modules = dict(model._module.named_modules())
    children = {path.rsplit(".", 1)[-1] for path in modules if path}
    for key in rename:
        if isinstance(key, type):
            matched = any(isinstance(module, key) for module in modules.values())
        else:
            native = key.lstrip(".")
            matched = native in modules if "." in native else native in children or hasattr(model._module, native)
        if not matched:
            raise ValueError(
                f"rename= key {key!r} matches no module of this {type(model._module).__name__}; a dotted key is a "
                "native path from the root (e.g. 'transformer.h'), a plain key a child name found anywhere "
                "(e.g. 'attn'): print(model) shows the native names"
            )


def _check_prompt(model: Any, inputs: tuple) -> None:
    """Refuse a text input that gives the model no token to run on."""
    if not inputs:
        return
    first = inputs[0]
    texts = [first] if isinstance(first, str) else first if isinstance(first, list) else None
    if texts is None:
        return
    if not texts:
        raise ValueError("the trace got an empty list of prompts; pass at least one prompt")
    tokenizer = getattr(model, "tokenizer", None)
    if tokenizer is None:
        return
    # Only a blank text can tokenize to nothing; the others are not tokenized twice.
    blank = [i for i, text in enumerate(texts) if isinstance(text, str) and not text.strip()]
    empty = [i for i in blank if not tokenizer(texts[i])["input_ids"]]
    if not empty:
        return
    if isinstance(first, str):
        raise ValueError(
            f"the prompt {first!r} tokenizes to no tokens, and the model needs at least one; pass a non-empty prompt"
        )
    raise ValueError(
        f"the prompt at position {empty[0]} of the batch, {texts[empty[0]]!r}, tokenizes to no tokens: it would run "
        f"as padding alone and read as a real row; remove it from the list or pass a non-empty prompt"
    )


class StandardizedTransformer(Standardized, TransformersModel):
    """A `TransformersModel` with one set of module names and standard values on every family.

    Args:
        repo_id: A Hub repo id, a local checkpoint directory, or a loaded `torch.nn.Module`.
        family: The family for this load, a module or any object with `RENAME` and
            `ENVOYS`; the config's `model_type` and the registry are not consulted.
        rename: Aliases merged over the family's `RENAME`; a key given here wins.
        envoys: Envoy classes merged over nnsight's tensor-parallel envoys and the
            family's `ENVOYS`; a key given here wins.
        tokenizer_kwargs: Attributes set on the loaded tokenizer (`padding_side`, `pad_token`);
            a key the tokenizer has no attribute for is refused.
        **kwargs: Passed to `TransformersModel` (`dispatch`, `device`, `dtype`,
            `attn_implementation`, `revision`, `trust_remote_code`, `task`, which
            defaults to `"text-generation"`; `"image-text-to-text"` is the other task
            served, and any other is refused).
    """

    def __init__(
        self,
        repo_id: Any,
        family: Any = None,
        rename: dict | None = None,
        envoys: dict | None = None,
        tokenizer_kwargs: dict | None = None,
        **kwargs: Any,
    ) -> None:
        _refuse_legacy_keywords(kwargs)
        if "task" in kwargs:
            _check_task(kwargs["task"])
        fields = _check_source(repo_id, needs_type=family is None, revision=kwargs.get("revision"))
        config = fields
        if family is None:
            # A local config.json without a nested text config or custom code names its
            # model_type directly; reading it once here spares a second parse by AutoConfig,
            # which still decides (and refuses custom code) everywhere else.
            plain = fields is not None and fields.text_config is None and not fields.custom and fields.model_type
            config = fields if plain else _read_config(repo_id, kwargs)
            family = families.lookup(family_model_type(config, repo_id))
        _check_family(family)
        _task_for(family, kwargs)
        read = config
        check_load_keywords(
            type(self), kwargs, lambda: read if not isinstance(read, _Fields | None) else _read_config(repo_id, kwargs)
        )
        self._text_wrapper = _text_wrapper(config, kwargs["task"], repo_id, kwargs)
        self.family = family
        self._tokenizer_kwargs = dict(tokenizer_kwargs or {})
        self._prefix_false_tokenizer = None
        self._order_cache: dict[int, dict[str, int]] = {}
        merged_rename = {**family.RENAME, **(rename or {})}
        merged_envoys = _class_map({**_base_envoys(repo_id, kwargs), **family.ENVOYS, **(envoys or {})})
        _text_load_kwargs(family, repo_id, kwargs)
        _load_preprocessor(repo_id, kwargs)
        if isinstance(repo_id, torch.nn.Module):
            _regroup_root(family, repo_id)
        super().__init__(repo_id, rename=merged_rename, envoys=merged_envoys, **kwargs)
        _check_block_list(self)
        _check_rename_keys(self, rename)
        self._source_root_scatter()
        if is_encoder(family):
            keep_call_ids(self)
        if family is default_family:
            default_family.check(self)

    def _load_meta(self, repo_id: Any, *args: Any, **kwargs: Any) -> Any:
        with _lent_to_causal_lm(getattr(self, "_text_wrapper", None)):
            return _regroup_root(self.family, super()._load_meta(repo_id, *args, **kwargs))

    def _load(self, *args: Any, **kwargs: Any) -> Any:
        with _wrapper_notice():
            return _regroup_root(self.family, super()._load(*args, **kwargs))

    def _wrap(self, module: Any, *args: Any, **kwargs: Any) -> Any:
        with _wrapper_notice():
            return super()._wrap(module, *args, **kwargs)

    def _batch_size(self, *inputs: Any, **kwargs: Any) -> int:
        # Called once per invoke as the trace is built, so an empty prompt is refused
        # before the model runs instead of failing inside it.
        check_trace_input(self, inputs, kwargs)
        _check_prompt(self, inputs)
        return super()._batch_size(*inputs, **kwargs)

    def _batch(self, invokes: list, fn: Any) -> tuple:
        # A trace runs one forward (`_call`); `generate` and `pipe` take their own keywords.
        if getattr(fn, "__name__", None) == "generate":
            refuse_generate(self)
        if getattr(fn, "__func__", None) is TransformersModel._call:
            for inputs, kwargs in invokes:
                check_trace_keywords(self, inputs, kwargs)
            batcher = getattr(self.interleaver, "batcher", None)
            extra = getattr(batcher, "extra_kwargs", None) or {}
            check_params_only(self, invokes, extra, getattr(batcher, "kwargs", None) or {})
        return super()._batch(invokes, fn)

    def _sync(self) -> None:
        super()._sync()
        # A trace reads an encoder's values on any sentence, with or without a mask token.
        accept_prompts_without_mask(self.pipeline)

    def trace(self, *inputs: Any, **kwargs: Any) -> Any:
        # nnterp's tracer adds the hints for a missing prompt and an unsaved value; a
        # remote trace, or a caller's own tracer class, keeps what nnsight builds.
        if kwargs.get("tracer_cls") is None and not kwargs.get("remote") and kwargs.get("backend") is None:
            kwargs["tracer_cls"] = Tracer
        return super().trace(*inputs, **kwargs)

    # -- loading ----------------------------------------------------------------

    def _update(self, module: Any) -> None:
        super()._update(module)
        # The real weights arrive with the plain forward; the root scatter's is instrumented again.
        self._source_root_scatter()
        if is_encoder(self.family):
            keep_call_ids(self)

    def _source_root_scatter(self) -> None:
        """Instrument the root's own forward where the wrapper scatters the image in it.

        Done when the family sets `ROOT_SCATTER` and the load has a `projector`: the
        tower runs inside the root's forward, so a drill on first read, after a tower
        value, would ask for a location the model has passed.
        """
        if getattr(self.family, "ROOT_SCATTER", False) and "projector" in self._aliases:
            self.source  # noqa: B018 - building the Source instruments the forward

    def _configure_tokenizer(self) -> None:
        super()._configure_tokenizer()
        if self.tokenizer is not None and is_encoder(getattr(self, "family", None)):
            # nnsight left-pads every model whose class can generate, and a masked-LM class may (FlauBERT's); an
            # encoder's positions count from the first token, so its batch pads on the right.
            self.tokenizer.padding_side = "right"
        # Applied after nnsight's defaults, and again on every dispatch, so a
        # caller's padding side survives the load of the real weights.
        if self.tokenizer is not None:
            settings = getattr(self, "_tokenizer_kwargs", {})
            _check_tokenizer_kwargs(self.tokenizer, settings)
            for name, value in settings.items():
                setattr(self.tokenizer, name, value)

    @property
    def add_prefix_false_tokenizer(self) -> Any:
        """The tokenizer loaded again with `add_prefix_space=False`, on first use."""
        if self._prefix_false_tokenizer is None:
            from transformers import AutoTokenizer

            source = self.repo_id if isinstance(self.repo_id, str) else self.tokenizer.name_or_path
            options = {key: self.kwargs[key] for key in ("revision", "trust_remote_code") if key in self.kwargs}
            self._prefix_false_tokenizer = AutoTokenizer.from_pretrained(source, add_prefix_space=False, **options)
        return self._prefix_false_tokenizer

    # -- remote -------------------------------------------------------------------

    def _remoteable_class(self) -> type:
        # The server rebuilds a plain TransformersModel; nnterp, installed there,
        # standardizes it by reference.
        return TransformersModel

    def _remoteable_model_key(self) -> str:
        from nnsight.modeling.huggingface import _ID_CACHE

        repo_id = self.repo_id
        offline = os.environ.get("HF_HUB_OFFLINE", "0") not in ("", "0", "false", "False")
        if isinstance(repo_id, str) and repo_id not in _ID_CACHE and (offline or os.path.isdir(repo_id)):
            # nnsight would ask the Hub for the canonical id, which a local path or an
            # offline machine cannot answer; where its id cache already holds the
            # answer, nnsight's own key is used, so both spell the id alike.
            data: dict[str, Any] = {"repo_id": repo_id, "revision": self.revision}
            if self.kwargs.get("trust_remote_code"):
                data["trust_remote_code"] = True
            data["task"] = self.task
            return json.dumps(data)
        return super()._remoteable_model_key()

    # -- order --------------------------------------------------------------------

    def order(self, layer: int | None = None) -> dict[str, int]:
        """The forward order of block `layer`'s available values: name to rank, equal ranks at one location.

        Measured by one probe run on the first call for a block, then cached.
        """
        layer = 0 if layer is None else layer_index(layer, len(self.layers), "order(layer)")
        if layer not in self._order_cache:
            self._order_cache[layer] = probe_order(self, layer)
        return dict(self._order_cache[layer])

    def rank(self, name: str, layer: int | None = None) -> tuple[str, int]:
        """Where value `name` of block `layer` is read: `(side, rank)`, side `"block"` or `"root"`."""
        if name in _root_values(type(self)):
            names = list(_root_values(type(self)))
            return "root", names.index(name)
        order = self.order(layer)
        if name not in order:
            layer = 0 if layer is None else layer
            reason = self.support(layer=layer).get(name, "no value of that name")
            raise KeyError(
                f"{name!r} has no rank on block {layer}: {reason or 'a derived value has the rank of what it reads'}; "
                f"model.order({layer}) lists the ranked values, model.support(layer={layer}) every value"
            )
        return "block", order[name]

    # -- root values ----------------------------------------------------------------

    @EProperty("inputs", select="input_ids", description="The token ids the model was called with")
    def input_ids(self, value) -> Tokens:
        return value

    @EProperty("inputs", description="The mask the model was called with; zeros are padding")
    def attention_mask(self, value) -> Tokens:
        args, kwargs = value
        mask = kwargs.get("attention_mask")
        if mask is None:
            # generate calls the model without a mask when nothing is padded; the
            # all-ones mask it stands for is installed so that reads and writes agree.
            ids = kwargs.get("input_ids", args[0] if args else None)
            # The cache travels as `past_key_values`, or as `cache` from transformers 5.24 on.
            cache = kwargs.get("past_key_values", kwargs.get("cache"))
            try:
                past = cache.get_seq_length() if cache is not None and hasattr(cache, "get_seq_length") else 0
            except ValueError:  # a cache of recurrent layers only holds no token count for a mask to cover
                past = 0
            if getattr(self.family, "RESENDS_IDS", False):  # every step passes every id (XLM); the ids are the span
                past = 0
            mask = torch.ones((ids.shape[0], past + ids.shape[1]), dtype=torch.long, device=ids.device)
            from nnsight.intervention.interleaver import Mediator

            Mediator.swap(f"{self.path}.input", (args, {**kwargs, "attention_mask": mask}))
        return mask

    @attention_mask.postprocess
    def attention_mask(self, value):
        from nnsight.intervention.interleaver import Mediator

        args, kwargs = Mediator.value(f"{self.path}.input")
        return args, {**kwargs, "attention_mask": value}

    @EProperty("inputs", select="input_ids", description="The shape of the token ids")
    def input_size(self, value):
        return value.shape

    @input_size.postprocess
    def input_size(self, value):
        raise AttributeError(
            "input_size is the shape of input_ids and cannot be assigned; assign model.input_ids instead"
        )

    @_FamilyValue("embed_tokens.output", description="The embedding module's output")
    def token_embeddings(self, value) -> Residual:
        return value

    @_FamilyValue("norm.output", description="The final norm's output, what the head reads")
    def final_norm_output(self, value) -> Residual:
        return value

    @_FamilyValue("lm_head.output", description="The head's own projection")
    def lm_head_output(self, value) -> Logits:
        return value

    @EProperty(
        "output",
        description="The logits the model returns, after anything it does past the head",
        unavailable=no_head,
    )
    def logits(self, value) -> Logits:
        return value.logits

    @logits.postprocess
    def logits(self, value):
        from nnsight.intervention.interleaver import Mediator

        output = Mediator.value(f"{self.path}.output")
        output["logits"] = value
        return output

    def _next_token_probs(self) -> NextTokenProbs:
        return self.logits[:, -1].softmax(-1)

    next_token_probs = FromLogits(
        _next_token_probs,
        description="The softmax of the logits at the last position",
        unavailable=no_next_token,
    )

    @EProperty(
        "inputs",
        select="input_ids",
        description="Which positions of an encoder's input hold the tokenizer's mask token",
        unavailable=not_an_encoder,
    )
    def mask_token_mask(self, value) -> MaskTokenMask:
        return value == mask_token_id(self)

    @mask_token_mask.postprocess
    def mask_token_mask(self, value):
        raise AttributeError(
            "mask_token_mask is read off the input ids and cannot be assigned; put the mask token in the prompt, "
            "or assign model.input_ids"
        )

    def _mask_token_probs(self) -> MaskTokenProbs:
        # The logits first: the positions come from the ids this call's embedding took, so
        # reading this after any other value (an edit of a block included) keeps forward order.
        logits = self.logits
        return logits[call_mask(self, "mask_token_probs")].softmax(-1)

    mask_token_probs = FromLogits(
        _mask_token_probs,
        description="The softmax of the logits at every mask token of the batch, row by row",
        unavailable=no_mask_predictions,
    )


def _check_tokenizer_kwargs(tokenizer: Any, settings: dict) -> None:
    """Refuse a `tokenizer_kwargs=` key the tokenizer has no attribute for, which setting would only store."""
    unknown = sorted(name for name in settings if not isinstance(name, str) or not hasattr(tokenizer, name))
    if unknown:
        import difflib

        names = [name for name in dir(tokenizer) if not name.startswith("_")]
        close = {name: difflib.get_close_matches(str(name), names, n=1) for name in unknown}
        hints = "".join(f" ({name!r}: did you mean {match[0]!r}?)" for name, match in close.items() if match)
        raise ValueError(
            f"tokenizer_kwargs= names {unknown}, which {type(tokenizer).__name__} has no attribute for, so setting it "
            f"would change nothing{hints}; the keys are tokenizer attributes such as 'padding_side', 'pad_token', "
            "'truncation_side' or 'model_max_length'"
        )


def _base_envoys(repo_id: Any, kwargs: dict) -> dict:
    # TransformersModel only defaults to the tensor-parallel envoys when no map is
    # passed, and nnterp always passes one.
    from nnsight.modeling.tp.envoys import tp_envoys, wants_tensor_parallel

    return tp_envoys() if wants_tensor_parallel(repo_id, kwargs) else {}


def _class_map(envoys: dict) -> dict:
    """`envoys` closed by a `torch.nn.Module` key (`Plain`), where no key is a path.

    nnsight tries class keys along each module's MRO first and, only when none
    matches, spells the module's path under every `rename` alias to try path keys.
    A map of class keys alone never needs those spellings; the closing key makes
    every module match a class, which spares them on every module at each load.
    """
    if any(isinstance(key, str) for key in envoys):
        return envoys
    return {**envoys, torch.nn.Module: Plain}


def _regroup_root(family: Any, module: Any) -> Any:
    """`module`, regrouped where the family maps its class to a `Regrouping` envoy; returned.

    The root's envoy is the wrapper itself, never the family's, so a trunk loaded as the
    root (a bare encoder, `task="feature-extraction"`) whose blocks the family gathers
    at load (FlauBERT's parallel lists) is regrouped here, before its children are
    mirrored, on the meta load and again with the real weights.
    """
    envoy = getattr(family, "ENVOYS", {}).get(type(module))
    if isinstance(envoy, type) and issubclass(envoy, Regrouping):
        envoy.regroup(module)
    return module


def _check_block_list(model: Any) -> None:
    """Give the block list's envoy the index checks, unless a family or caller gave it a class."""
    layers = getattr(model, "layers", None)
    # `BlockList` only adds `__getitem__` to `Envoy`, so the swap keeps every attribute.
    if layers is not None and type(layers) in (Envoy, Plain):
        layers.__class__ = BlockList


def _text_load_kwargs(family: Any, repo_id: Any, kwargs: dict) -> None:
    """Give a default-task load from a checkpoint the family's `TEXT_LOAD_KWARGS`, under the caller's own.

    A family whose text-only class cannot read a wrapper checkpoint's names as saved
    (Emu3's `key_mapping`) declares them; a loaded module and any other task get none.
    """
    extra = getattr(family, "TEXT_LOAD_KWARGS", None)
    if not extra or kwargs.get("task") != "text-generation" or isinstance(repo_id, torch.nn.Module):
        return
    for key, value in extra.items():
        kwargs.setdefault(key, value)


def _load_preprocessor(repo_id: Any, kwargs: dict) -> None:
    """Load the tokenizer (or a wrapper's processor) here, since nnsight cannot guess it offline."""
    task = kwargs.get("task")
    slot = "processor" if task == "image-text-to-text" else "tokenizer"
    if kwargs.get(slot) is not None:
        return
    source = repo_id
    if isinstance(repo_id, torch.nn.Module):
        source = getattr(getattr(repo_id, "config", None), "_name_or_path", None)
        if not source:
            return
    options = {key: kwargs[key] for key in ("revision", "trust_remote_code") if key in kwargs}
    if slot == "processor":
        from transformers import AutoProcessor

        kwargs[slot] = AutoProcessor.from_pretrained(source, **options)
    else:
        from transformers import AutoTokenizer

        kwargs[slot] = AutoTokenizer.from_pretrained(source, **options)


__all__ = [
    "SIZES",
    "FromLogits",
    "Logits",
    "NextTokenProbs",
    "Standardized",
    "StandardizedTransformer",
    "Tokens",
    "family_model_type",
    "layer_index",
]

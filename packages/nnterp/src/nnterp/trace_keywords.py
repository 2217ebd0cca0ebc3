"""The keywords a trace takes: every keyword must reach the model's forward, which runs once.

A trace runs one forward through the model. transformers' forwards take `**kwargs`
and drop what they do not read, and the pipeline a trace prepares text with keeps
some keywords for its postprocessing, which a trace never runs: a generation
keyword (`max_new_tokens=5`) or a typo would change nothing and raise nothing.
`check_trace_keywords` refuses such a keyword before the model runs.

A keyword given without a prompt (`model.trace(max_new_tokens=5)` around invokes,
or `tracer.invoke(max_new_tokens=5)`) contributes no rows: nnsight lays it over the
combined forward, so `check_params_only` holds it to the same rule, and refuses a
trace whose invokes give no prompt at all.
"""

from __future__ import annotations

import inspect
from functools import cache
from typing import Any

#: Names transformers' forwards still read under an older spelling.
_RENAMED = frozenset({"past_key_values", "cache_params"})


@cache
def _parameters(forward_type: type) -> tuple[str, ...]:
    """The named parameters of the forward of `forward_type`, in order."""
    parameters = inspect.signature(forward_type.forward).parameters.values()
    return tuple(p.name for p in parameters if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name != "self")


@cache
def _forward_keywords(forward_type: type) -> frozenset[str]:
    """The keywords the forward of `forward_type` takes: its parameters and transformers' typed `**kwargs`."""
    parameters = inspect.signature(forward_type.forward).parameters.values()
    named = set(_parameters(forward_type))
    if any(p.kind == p.VAR_KEYWORD for p in parameters):
        from transformers.modeling_flash_attention_utils import FlashAttentionKwargs
        from transformers.utils.generic import TransformersKwargs

        named |= set(TransformersKwargs.__annotations__) | set(FlashAttentionKwargs.__annotations__) | _RENAMED
    return frozenset(named)


@cache
def _generation_keywords() -> frozenset[str]:
    from transformers import GenerationConfig, GenerationMixin

    names = set(GenerationConfig().to_dict()) | set(inspect.signature(GenerationMixin.generate).parameters)
    return frozenset(names - {"self", "inputs", "kwargs"})


def _is_text(data: Any) -> bool:
    """Whether the pipeline prepares `data`: a prompt, a list of prompts, or chat messages (not token ids)."""
    from nnsight.modeling import processing

    if processing.is_token_ids(data):
        return False
    return isinstance(data, str) or (isinstance(data, list) and bool(data) and isinstance(data[0], (str, dict, list)))


def check_trace_keywords(model: Any, inputs: tuple, kwargs: dict) -> None:
    """Refuse a keyword of one trace invoke that the model's forward would not read.

    Text is prepared by the task's pipeline: the keywords its preprocessing takes
    (`add_special_tokens`, `truncation`, ...) are read there, the rest go to the
    forward. A media keyword (`images=`) goes to the processor. Anything else must be
    a keyword of the forward.
    """
    if not kwargs:
        return
    from nnsight.modeling import processing

    module = model._module
    accepted = _forward_keywords(type(module))
    forward = set(kwargs)
    if model.processor is not None and set(kwargs) & processing.PROCESSOR_MEDIA_KEYS:
        forward -= processing.PROCESSOR_KEYS
    elif inputs and _is_text(inputs[0]) and getattr(model, "pipeline", None) is not None:
        preprocess, to_forward, _ = processing.sanitize(model, dict(kwargs))
        dropped = sorted(key for key in kwargs if key not in preprocess and key not in to_forward)
        if dropped:
            _refuse(model, dropped)
        forward = {key for key in kwargs if key in to_forward}
    unread = sorted(key for key in forward if key not in accepted)
    if unread:
        _refuse(model, unread)


def check_params_only(model: Any, invokes: list, extra: dict, traced: dict) -> None:
    """Refuse the keywords a trace got with no prompt that its forward would not read, and a trace with no prompt.

    `invokes` are the `(inputs, kwargs)` pairs that give rows, `extra` the keywords
    given without a prompt (nnsight lays them over the combined forward), and
    `traced` the keywords of `model.trace()` itself, which tell the two places apart.
    """
    for where, names in (
        ("model.trace()", sorted(key for key in extra if key in traced)),
        ("tracer.invoke() without a prompt", sorted(key for key in extra if key not in traced)),
    ):
        unread = [name for name in names if name not in _forward_keywords(type(model._module))]
        if unread:
            _refuse(model, unread, where)
    if not invokes:
        given = f" (only the keyword(s) {', '.join(f'{key}=' for key in sorted(extra))})" if extra else ""
        raise ValueError(
            f"trace() needs a prompt, and none of its invokes gave one{given}; pass it to an invoke, "
            "`with tracer.invoke(prompt):`, or to the trace, `model.trace(prompt)`"
        )


def _refuse(model: Any, names: list[str], where: str = "model.trace()") -> None:
    forward = f"{type(model._module).__name__}.forward"
    generation = [name for name in names if name in _generation_keywords()]
    if generation:
        listed = ", ".join(f"{name}=" for name in generation)
        raise TypeError(
            f"{where} got the generation keyword(s) {listed}, and a trace runs one forward, which does not "
            f"read them; generate with `with model.generate(prompt, {generation[0]}=...):` instead"
        )
    listed = ", ".join(f"{name}=" for name in names)
    raise TypeError(
        f"{where} got the keyword(s) {listed}, which {forward} does not take, so they would be dropped; "
        f"remove them, or pass one the forward names: {', '.join(_parameters(type(model._module)))}"
    )


__all__ = ["check_params_only", "check_trace_keywords"]

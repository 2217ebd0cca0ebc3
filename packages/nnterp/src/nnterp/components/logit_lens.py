"""`LogitLens`: a family's `project_on_vocab`, declared as the steps its model's head takes.

A family whose head does more than the final norm and `lm_head` declares
`project_on_vocab = LogitLens(...)` at module level, naming each step its model takes
between the last block and the logits. The lens runs the named steps in this order:

1. `streams(model, hidden)`: one stream from every stream (`Streams` in, `Residual` out);
2. the final norm `model.norm`, unless `norm=False`;
3. the division by `divide_before`;
4. the head modules `head`, in order (`lm_head` alone by default);
5. the cast to float32 where `float32=True`;
6. the multiplication by `multiply`, then the division by `divide`;
7. the softcap `softcap * tanh(logits / softcap)`;
8. the logits past `vocab` dropped;
9. `after(model, logits)`.

A number is the name of a text-config attribute (absent reads as `None`) or a function
of the model; a number that reads `None` skips its step, and so does a softcap of zero.
Outside a trace the stream moves to the last head module's device first, so a lens
works on a model dispatched over several devices.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import torch

Number = str | Callable[[Any], Any] | None


def text_config(model: Any) -> Any:
    """The config that holds the text model's sizes: the nested text config where the model wraps one."""
    config = model.config
    return config.get_text_config() if hasattr(config, "get_text_config") else config


def read(model: Any, number: Number) -> Any:
    """The value of `number` on `model`: a text-config attribute by name, or the function's answer."""
    if number is None:
        return None
    if isinstance(number, str):
        return getattr(text_config(model), number, None)
    return number(model)


def module_attribute(name: str) -> Callable[[Any], Any]:
    """A number the wrapped model holds as its own attribute `name` (Cohere's `logit_scale`)."""

    def number(model: Any) -> Any:
        return getattr(model._module, name)

    number.__name__ = f"the model's `{name}`"
    return number


def only_on(classes: type | tuple[type, ...], number: Number) -> Callable[[Any], Any]:
    """`number` where the wrapped model is one of `classes`, else `None` (a wrapper whose head skips the step)."""
    kinds = classes if isinstance(classes, tuple) else (classes,)

    def gated(model: Any) -> Any:
        return read(model, number) if isinstance(model._module, kinds) else None

    names = " or ".join(kind.__name__ for kind in kinds)
    gated.__name__ = f"{_name(number)} on {names}"
    return gated


def _name(number: Any) -> str:
    return f"`{number}`" if isinstance(number, str) else getattr(number, "__name__", repr(number))


class LogitLens:
    """Logits for a residual-stream tensor, by the steps the family declares; called as `(model, hidden)`.

    Every argument is a keyword; the module docstring lists the steps in the order
    they run. The instance's docstring names the steps it takes.
    """

    def __init__(
        self,
        *,
        streams: Callable[[Any, Any], Any] | None = None,
        norm: bool = True,
        divide_before: Number = None,
        head: Sequence[str] = ("lm_head",),
        float32: bool = False,
        multiply: Number = None,
        divide: Number = None,
        softcap: Number = None,
        vocab: Number = None,
        after: Callable[[Any, Any], Any] | None = None,
    ) -> None:
        self.streams = streams
        self.norm = norm
        self.divide_before = divide_before
        self.head = tuple(head)
        self.float32 = float32
        self.multiply = multiply
        self.divide = divide
        self.softcap = softcap
        self.vocab = vocab
        self.after = after
        self.__doc__ = self._describe()
        # The declaring module, as `collections.namedtuple` records it: pages that list a family's own
        # replacements of root attributes tell a declared lens from one imported from another family.
        self.__module__ = sys._getframe(1).f_globals.get("__name__", __name__)

    def __call__(self, model: Any, hidden: Any) -> Any:
        modules = [getattr(model, name) for name in self.head]
        if not model.interleaver.interleaving:
            # The last head module's first parameter: a head may be a container with no weight of its own.
            hidden = hidden.to(next(modules[-1]._module.parameters()).device)
        if self.streams is not None:
            hidden = self.streams(model, hidden)
        if self.norm:
            hidden = model.norm(hidden)
        if (before := read(model, self.divide_before)) is not None:
            hidden = hidden / before
        for module in modules:
            hidden = module(hidden)
        logits = hidden.float() if self.float32 else hidden
        if (factor := read(model, self.multiply)) is not None:
            logits = logits * factor
        if (divisor := read(model, self.divide)) is not None:
            logits = logits / divisor
        if cap := read(model, self.softcap):
            logits = cap * torch.tanh(logits / cap)
        if (size := read(model, self.vocab)) is not None and size < logits.shape[-1]:
            logits = logits[..., :size]
        return logits if self.after is None else self.after(model, logits)

    def _describe(self) -> str:
        steps = []
        if self.streams is not None:
            steps.append(f"the streams collapsed by `{self.streams.__name__}`")
        if self.norm:
            steps.append("the final norm")
        if self.divide_before is not None:
            steps.append(f"the division by {_name(self.divide_before)}")
        heads = ", then ".join(f"`{name}`" for name in self.head)
        steps.append(f"{heads} in float32" if self.float32 else heads)
        if self.multiply is not None:
            steps.append(f"the multiplication by {_name(self.multiply)}")
        if self.divide is not None:
            steps.append(f"the division by {_name(self.divide)}")
        if self.softcap is not None:
            steps.append(f"the softcap by {_name(self.softcap)}")
        if self.vocab is not None:
            steps.append(f"the logits past {_name(self.vocab)} dropped")
        if self.after is not None:
            steps.append(f"`{self.after.__name__}`")
        return "The logit lens: " + ", then ".join(steps) + "."

    def __repr__(self) -> str:
        return f"LogitLens({self.__doc__!r})"


__all__ = ["LogitLens", "Number", "module_attribute", "only_on", "read", "text_config"]

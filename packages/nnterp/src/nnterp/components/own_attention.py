"""Attentions with their own arithmetic: the interior read at the operations of their own forward.

Many attentions (BLOOM, GPT-Neo, MPT, XGLM, GPT-1, CodeGen, Falcon, GPT-J...) never
call the shared attention interface: they multiply, mask and normalize in their own
forward, under every `attn_implementation`. Their interior values are read at those
operations, each family naming where. `OwnAttention` answers `off_interface()` with
`None`, and `own_value` builds a value from a path, the layout the forward holds it
in, and the shape that turns it into the standard layout and back.

A shape is a pair `(read, write)` of functions `f(attention, tensor)`: `read` maps
the tensor as the forward holds it to the standard layout, `write` maps a written
standard tensor back. `AS_IS`, `MERGED_HEADS`, `HEADS_FIRST`, `KEYS_TRANSPOSED` and
`FOLDED_HEADS` are the ones these forwards need; `chain` composes two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .attention import Attention
from .eproperty import EProperty, Reason, Select

Shape = tuple[Callable[[Any, Any], Any], Callable[[Any, Any], Any]]


def own_arithmetic(attention: Any) -> str | None:
    """The predicate the interior values carry: the attention's own `off_interface()`.

    `None` on an `OwnAttention`, whose forward runs the same arithmetic under every
    attention implementation; a family with a configuration that skips an
    operation overrides `off_interface()` once.
    """
    return attention.off_interface()


def always(envoy: Any) -> str | None:
    """The predicate of a value read inside a forward that holds it under every configuration.

    For a sublayer that adds the residual inside its own forward (BLOOM's and MPT's
    MLPs): the operation that takes the contribution always runs.
    """
    return None


def _same(attention: Any, value: Any) -> Any:
    return value


#: The tensor is in the standard layout already.
AS_IS: Shape = (_same, _same)

#: `[batch, seq, heads * head_dim]` as the output projection takes it <-> `[batch, seq, heads, head_dim]`.
MERGED_HEADS: Shape = (
    lambda attention, value: value.unflatten(-1, (attention.num_heads, -1)),
    lambda attention, value: value.flatten(-2),
)

#: `[batch, heads, seq, head_dim]` <-> `[batch, seq, heads, head_dim]` (one transpose, its own inverse).
HEADS_FIRST: Shape = (
    lambda attention, value: value.transpose(1, 2),
    lambda attention, value: value.transpose(1, 2),
)

#: Keys held transposed for the product, `[batch, heads, head_dim, seq]` <-> `[batch, heads, seq, head_dim]`.
KEYS_TRANSPOSED: Shape = (
    lambda attention, value: value.transpose(-1, -2),
    lambda attention, value: value.transpose(-1, -2),
)

#: Batch and heads folded into one axis, `[batch * heads, ...]` <-> `[batch, heads, ...]`.
FOLDED_HEADS: Shape = (
    lambda attention, value: value.unflatten(0, (-1, attention.num_heads)),
    lambda attention, value: value.flatten(0, 1),
)


def folded(heads: Callable[[Any], int]) -> Shape:
    """`FOLDED_HEADS` with the folded head count read by `heads(attention)` (key/value heads, say)."""
    return (
        lambda attention, value: value.unflatten(0, (-1, heads(attention))),
        lambda attention, value: value.flatten(0, 1),
    )


def chain(first: Shape, then: Shape) -> Shape:
    """`first`, then `then`, on reads; the inverse order on writes."""
    return (
        lambda attention, value: then[0](attention, first[0](attention, value)),
        lambda attention, value: first[1](attention, then[1](attention, value)),
    )


def own_value(
    name: str,
    key: str | Callable[[Any], str],
    shape: Shape = AS_IS,
    select: Select = None,
    unavailable: Reason = own_arithmetic,
    description: str | None = None,
) -> EProperty:
    """The base attention's value `name`, served at `key` of an own-arithmetic forward.

    The layout and, unless given, the description are the base `Attention`'s, so a
    family's value keeps the contract of the value it replaces. `shape` maps the
    served tensor to that layout and back; `select` and `unavailable` are
    `EProperty`'s.
    """
    base = Attention.values()[name]
    read, write = shape

    def stub(self, value):
        return read(self, value)

    stub.__name__ = name
    stub.__qualname__ = name
    stub.__annotations__ = {"return": base.layout}
    prop = EProperty(
        key,
        select=select,
        description=description or base.description,
        unavailable=unavailable,
    )(stub)
    if write is not _same:
        prop.postprocess(lambda self, value: write(self, value))
    return prop


class OwnAttention(Attention):
    """An attention that does its own arithmetic; its interior runs under every attention implementation.

    A family subclass names where each interior value sits with `own_value`, and
    declares a value its forward never holds `unavailable(...)` with the reason.
    """

    def off_interface(self) -> str | None:
        return None

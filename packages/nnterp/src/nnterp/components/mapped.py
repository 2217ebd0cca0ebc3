"""Values that a forward holds in another layout than the standard one, mapped on every read and write.

Some trunks hold the stream otherwise than `[batch, seq, hidden]`: XLNet's blocks run
sequence-first, CPM-Ant's run a prompt segment ahead of the user's tokens. A family
there replaces a base value with `mapped_value`: the same name, layout and (unless
given) description as the value it replaces, read at the family's own location.
`read(host, held)` turns what the forward holds into the standard layout;
`write(host, value)` turns an assigned standard tensor into what the forward holds
at that location, and `held(host, key)` gives the tensor held there now, for a write
that keeps part of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nnsight.intervention.interleaver import Mediator

from .eproperty import EProperty, Reason, Select, pick, resolve
from .standard import Standard


def contract_of(base: type, name: str) -> EProperty:
    """The value `name` that `base` serves: a `Standard` class's value, or a root class's own attribute."""
    if issubclass(base, Standard):
        return base.values()[name]
    return vars(base)[name]


def mapped_value(
    base: type,
    name: str,
    key: str,
    read: Callable[[Any, Any], Any],
    write: Callable[[Any, Any], Any],
    select: Select = None,
    unavailable: Reason = None,
    description: str | None = None,
) -> EProperty:
    """`base`'s value `name`, read at `key` through `read` and written back through `write`."""
    contract = contract_of(base, name)

    def stub(self, value):
        return read(self, value)

    stub.__name__ = stub.__qualname__ = name
    stub.__annotations__ = {"return": contract.layout}
    prop = EProperty(key, select=select, unavailable=unavailable, description=description or contract.description)
    prop = prop(stub)
    prop.postprocess(write)
    return prop


def held(host: Any, key: str, select: Select = None) -> Any:
    """What the forward holds at `key` from `host` in this run, before a write replaces it."""
    location, attribute = resolve(host, key, walk=False)
    return pick(attribute, Mediator.value(location), select(host) if callable(select) else select)

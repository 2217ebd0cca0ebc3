"""Which contract checks a `FamilySuite` class runs, chosen from its family's envoys and its declarations.

A family's test class states what it is (`FAMILY`, `NATIVE`, its quirks); the check
classes it runs follow from that, never from a base class written by hand:

- from its family's `ENVOYS`: a family whose `ENVOYS` map a module to a subclass of an
  envoy class in `BY_ENVOY` runs that envoy's checks (a `Moe` brings `MixtureChecks`,
  a `RecurrentMixer` `RecurrentChecks`, a `PostLNLayer` `PostLNChecks`, ...);
- from its family's declarations: a family that declares `ENCODER` runs `EncoderChecks`
  (`BY_DECLARATION`);
- from `CHECKS`, the checks the test class declares as data where the envoys cannot
  tell (a sliding window, a stream weighted per block, a parallel block with one norm):
  ``CHECKS = (SlidingWindowChecks,)``.

`ChoosesChecks`, `FamilySuite`'s metaclass, puts the chosen check classes among the
class's bases when the class statement runs, ahead of `FamilySuite` and behind any
base the file writes by hand, so a check overrides the core contract, the file
overrides a check, and pytest collects the class under its own name.
"""

from __future__ import annotations

from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module

from nnterp.components import HyperConnectionLayer, Moe, PostLNLayer, RecurrentMixer, ScaledRoutedMoe
from nnterp.components.kimi_delta import KimiDeltaAttention
from nnterp.components.short_convolution import ShortConvolution

from .encoder import EncoderChecks
from .hyper_connections import HyperConnectionChecks
from .kimi_delta import KimiDeltaChecks
from .mixture import MixtureChecks
from .post_ln import PostLNChecks
from .recurrent import RecurrentChecks
from .scaled_routing import ScaledRoutingChecks
from .short_convolution import ShortConvolutionChecks

#: Envoy class -> the checks a family runs when its `ENVOYS` hold a subclass of that envoy class.
#: A more specific check comes before the one it extends, which it then stands in for.
BY_ENVOY: tuple[tuple[type, type], ...] = (
    (HyperConnectionLayer, HyperConnectionChecks),
    (PostLNLayer, PostLNChecks),
    (ShortConvolution, ShortConvolutionChecks),
    (KimiDeltaAttention, KimiDeltaChecks),
    (RecurrentMixer, RecurrentChecks),
    (Moe, MixtureChecks),
    (ScaledRoutedMoe, ScaledRoutingChecks),
)

#: Family declaration -> the checks a family runs when it declares that flag true.
BY_DECLARATION: tuple[tuple[str, type], ...] = (("ENCODER", EncoderChecks),)


def by_declarations(family: Any) -> tuple[type, ...]:
    """The check classes `family`'s declared flags bring by `BY_DECLARATION`, in the table's order."""
    return tuple(checks for name, checks in BY_DECLARATION if getattr(family, name, False))


def envoy_classes(family: Any) -> tuple[type, ...]:
    """The envoy classes `family`'s `ENVOYS` map its modules to (none without a family)."""
    envoys = getattr(family, "ENVOYS", None) or {}
    return tuple(value for value in envoys.values() if isinstance(value, type))


def by_envoys(family: Any, table: tuple[tuple[type, type], ...] = BY_ENVOY) -> tuple[type, ...]:
    """The check classes `family`'s envoys bring by `table` (envoy class -> checks), in the table's order."""
    envoys = envoy_classes(family)
    return tuple(checks for envoy, checks in table if any(issubclass(e, envoy) for e in envoys))


def chosen(
    family: Any, declared: tuple[type, ...], bases: tuple[type, ...], table: tuple[tuple[type, type], ...] = BY_ENVOY
) -> tuple[type, ...]:
    """The check classes a class with these `bases` adds: `declared` first, then those `family`'s declarations and
    envoys bring.

    A check the bases already run, or that another chosen check extends, is left out.
    """
    found: list[type] = []
    brought = (*by_declarations(family), *by_envoys(family, table)) if table else ()
    for checks in (*declared, *brought):
        if checks not in found:
            found.append(checks)
    return tuple(
        checks
        for checks in found
        if not any(issubclass(base, checks) for base in bases)
        and not any(other is not checks and issubclass(other, checks) for other in found)
    )


def inherited(name: str, namespace: dict[str, Any], bases: tuple[type, ...]) -> Any:
    """The value class attribute `name` takes on a class with this `namespace` and these `bases`."""
    if name in namespace:
        return namespace[name]
    for base in bases:
        for klass in base.__mro__:
            if name in vars(klass):
                return vars(klass)[name]
    return None


class ChoosesChecks(type):
    """The metaclass that gives each suite class the checks its family's envoys and its `CHECKS` choose.

    The suite names the table its envoys are read against in `ENVOY_CHECKS` (`BY_ENVOY`
    for `FamilySuite`; none for `VisionSuite`, whose checks are all declared).
    """

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> type:
        declared = tuple(namespace.get("CHECKS", ()))
        table = inherited("ENVOY_CHECKS", namespace, bases) or ()
        added = chosen(inherited("FAMILY", namespace, bases), declared, bases, table)
        if added:
            # The checks go behind the bases written by hand and ahead of the first suite.
            at = next((i for i, base in enumerate(bases) if isinstance(base, ChoosesChecks)), len(bases))
            bases = (*bases[:at], *added, *bases[at:])
        return super().__new__(mcs, name, bases, namespace, **kwargs)

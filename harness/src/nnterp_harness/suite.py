"""`FamilySuite`: the end-to-end contract every family's test class inherits.

A family's test file subclasses `FamilySuite`, names its pinned tiny checkpoint, its
family module and its native paths as class attributes, states its quirks as the
other attributes, and adds only the checks that are its own::

    from nnterp_harness.release import family
    from nnterp_harness.suite import FamilySuite, LLAMA_ROWS

    class TestLlama(FamilySuite):
        CHECKPOINT = "llama"
        FAMILY = family("llama")
        NATIVE = LLAMA_ROWS

`FamilySuite` is the core contract (`nnterp_harness.family.FamilyContract`) plus the
contract checks the class's family and declarations choose (`nnterp_harness.contracts`):
a family whose envoys hold a mixture runs `MixtureChecks`, one with a recurrent mixer
`RecurrentChecks`, and a class states the rest in `CHECKS`. The shared helpers live in
`nnterp_harness.helpers`; this module re-exports the ones test files import.
"""

from __future__ import annotations

from typing import Any

from .contracts import BY_ENVOY, ChoosesChecks
from .family import FamilyContract
from .helpers import (
    ATTENTION_INTERIOR,
    LLAMA_ROWS,
    MOE_VALUES,
    NO_SHARED_EXPERT,
    OTHER_PROMPT,
    PROMPT,
    ROUTED_EXPERTS,
    child_names,
    first_tensor,
    host_of,
    moved,
    perturbed,
    rows,
    run,
    scale_of,
    split_key,
    ulp_close,
    with_config,
)


class FamilySuite(FamilyContract, metaclass=ChoosesChecks):
    """The core contract plus the checks chosen for the class; subclass it once per checkpoint layout.

    Besides `FamilyContract`'s attributes, `CHECKS` names the check classes the class
    runs that its family's envoys do not bring; `ENVOY_CHECKS` is the table of those the
    envoys bring (`nnterp_harness.contracts.BY_ENVOY`).
    """

    CHECKS: tuple[type, ...] = ()
    ENVOY_CHECKS = BY_ENVOY
    FAMILY: Any = None


__all__ = [
    "ATTENTION_INTERIOR",
    "LLAMA_ROWS",
    "MOE_VALUES",
    "NO_SHARED_EXPERT",
    "OTHER_PROMPT",
    "PROMPT",
    "ROUTED_EXPERTS",
    "FamilySuite",
    "child_names",
    "first_tensor",
    "host_of",
    "moved",
    "perturbed",
    "rows",
    "run",
    "scale_of",
    "split_key",
    "ulp_close",
    "with_config",
]

"""The coverage table: every shipped family, what its code declares, and the releases that run its suite.

Everything in a row is read off the family module itself: the components its envoys
are or build on (a parallel block, a sandwich block, an attention with its own
arithmetic, a mixture), whether its block returns a tuple, the sizes and the
`project_on_vocab` it defines, and every value it declares unavailable, with the
reason (a marker's string, or the name of the predicate that decides per
checkpoint). The releases column comes from `families/_releases.json`, which
records, per transformers release of the test matrix, the shipped types that
release has; each release's test run checks its own row.

`python -m nnterp families` prints the table; `--markdown` prints the page
`site/docs/families.md` holds.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RELEASES_FILE = Path(__file__).parent / "families" / "_releases.json"

#: The value hosts of a family's envoys, as `support()` prefixes them.
_HOSTS = {"Layer": "", "Attention": "self_attn.", "Mlp": "mlp."}


@dataclass
class Row:
    """One family's entry in the coverage table."""

    model_type: str
    summary: str
    traits: list[str] = field(default_factory=list)
    unavailable: dict[str, str] = field(default_factory=dict)
    conditional: dict[str, list[str]] = field(default_factory=dict)
    releases: list[str] = field(default_factory=list)


def matrix_releases() -> dict[str, list[str]]:
    """Release -> the shipped model types that release has, as recorded for the test matrix."""
    return json.loads(RELEASES_FILE.read_text(encoding="utf-8"))


def _bases(klass: type) -> list[str]:
    """The nnterp components `klass` is or builds on, beyond the three standard ones.

    A family may map a transformers class straight to a component, so `klass` itself counts.
    """
    from . import components

    plain = {"Standard", "Layer", "Attention", "Mlp"}
    found = []
    for base in klass.__mro__:
        if base.__module__.startswith("nnterp.components") and base.__name__ not in plain:
            if getattr(components, base.__name__, None) is base:
                found.append(base.__name__)
    return found


def _predicate(descriptor: Any) -> str | None:
    """The name of the family's own predicate that decides the value per checkpoint, else `None`.

    The shared predicates (eager attention, the interface, a child module's presence)
    hold on every family alike and are left out.
    """
    from .components.attention import interface_reason, needs_eager

    reason = descriptor.unavailable
    if reason is None or isinstance(reason, str) or reason in (needs_eager, interface_reason):
        return None
    name = getattr(reason, "__name__", type(reason).__name__)
    return None if name.startswith("needs_") else name


def _own_arithmetic(attention: type) -> bool:
    """Whether the attention's queries are read somewhere other than the shared interface's call."""
    from .components import INTERFACE

    queries = attention.values().get("attention_queries")
    if queries is None or queries.is_marker() or not isinstance(queries.key, str):
        return False
    return not queries.key.startswith(f"source.{INTERFACE}")


def family_row(model_type: str, module: Any, releases: dict[str, list[str]] | None = None) -> Row:
    """The coverage row of one family module."""
    from .components import Attention, EProperty, Layer, Standard
    from .standardized import SIZES

    doc = (module.__doc__ or "").strip()
    summary = doc.splitlines()[0] if doc else model_type
    traits: list[str] = []
    unavailable: dict[str, str] = {}
    conditional: dict[str, list[str]] = {}
    classes = sorted({klass for klass in module.ENVOYS.values() if isinstance(klass, type)}, key=lambda k: k.__name__)
    for klass in classes:
        for base in _bases(klass):
            if base not in traits:
                traits.append(base)
        if issubclass(klass, Layer) and klass.returns_tuple and "tuple block" not in traits:
            traits.append("tuple block")
        own = "own attention arithmetic"
        if (
            issubclass(klass, Attention)
            and _own_arithmetic(klass)
            and own not in traits
            and "OwnAttention" not in traits
        ):
            traits.append(own)
        if not issubclass(klass, Standard):
            continue
        prefix = next((p for base, p in _HOSTS.items() if any(b.__name__ == base for b in klass.__mro__)), "")
        for name, descriptor in klass.values().items():
            if descriptor.is_marker():
                unavailable[f"{prefix}{name}"] = descriptor.unavailable
            elif (predicate := _predicate(descriptor)) is not None:
                conditional.setdefault(predicate, []).append(f"{prefix}{name}")
    # A root value the family lacks is a module-level marker of the value's name (a post-LN model's final norm).
    for name, descriptor in vars(module).items():
        if isinstance(descriptor, EProperty) and descriptor.is_marker():
            unavailable[name] = descriptor.unavailable
    sizes = [name for name in SIZES if callable(getattr(module, name, None))]
    if sizes:
        traits.append("own sizes: " + ", ".join(sizes))
    if callable(getattr(module, "project_on_vocab", None)):
        traits.append("after-head project_on_vocab")
    if getattr(module, "ENCODER", False):
        traits.append("encoder, no vLLM family (vLLM runs an encoder as a pooling model)")
    releases = matrix_releases() if releases is None else releases
    ran = [release for release, types in releases.items() if model_type in types]
    return Row(model_type, summary, traits, dict(sorted(unavailable.items())), dict(sorted(conditional.items())), ran)


def shipped_types() -> list[str]:
    """Every model type a family module ships for, as transformers spells it where this release has it."""
    from .families import _shipped, _spelling, _transformers_types

    types = _transformers_types()
    return sorted(_spelling(name, types) or name for name in _shipped("transformers"))


def rows() -> list[Row]:
    """The coverage rows of every shipped family the installed transformers release has (each is imported)."""
    from .families import known, module_name

    releases = matrix_releases()
    found = []
    for model_type in known():
        module = importlib.import_module(f"nnterp.families.{module_name(model_type)}")
        found.append(family_row(model_type, module, releases))
    return found


def markdown(table: list[Row]) -> str:
    """The coverage page in Markdown, as `site/docs/families.md` holds it."""
    releases = list(matrix_releases())
    lines = [
        "# Families",
        "",
        "<!-- Generated by `python -m nnterp families --markdown`; a test fails when this page is stale. -->",
        "",
        f"nnterp ships {len(table)} families. Each row is read off the family module: the components its blocks",
        "are or build on, what its code declares unavailable and why, and the transformers releases of the test",
        f"matrix ({', '.join(releases)}) whose run holds the family to the whole `FamilySuite`.",
        "The values under *per checkpoint* are decided on each load by the family's predicate named beside them;",
        "`support()` gives the reason for the checkpoint at hand. The predicates every family shares (eager",
        "attention, the attention interface, a child module's presence) are not listed.",
        "",
        "| model type | family | traits | declared unavailable | per checkpoint | releases |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in table:
        gaps = "<br>".join(f"`{name}`: {reason}" for name, reason in row.unavailable.items()) or "none"
        decided = (
            "<br>".join(
                f"{predicate}: " + ", ".join(f"`{name}`" for name in names)
                for predicate, names in row.conditional.items()
            )
            or "none"
        )
        traits = ", ".join(row.traits) or "Llama's block"
        cells = [f"`{row.model_type}`", row.summary, traits, gaps, decided, ", ".join(row.releases) or "none"]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def text(table: list[Row]) -> str:
    """The coverage table as plain text, one block per family."""
    out = []
    for row in table:
        out.append(f"{row.model_type}: {row.summary}")
        out.append(f"  traits: {', '.join(row.traits) or 'none'}")
        out.append(f"  releases: {', '.join(row.releases) or 'none'}")
        for name, reason in row.unavailable.items():
            out.append(f"  unavailable {name}: {reason}")
        for predicate, names in row.conditional.items():
            out.append(f"  per checkpoint ({predicate}): {', '.join(names)}")
    out.append(f"{len(table)} families")
    return "\n".join(out) + "\n"

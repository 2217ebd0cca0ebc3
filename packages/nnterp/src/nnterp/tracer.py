"""nnterp's trace: nnsight's tracer with two hints for mistakes a trace body makes.

- A trace with no prompt runs its body outside any forward (it expects
  `tracer.invoke(prompt)` blocks); a value read there says that the trace needs a
  prompt.
- A variable assigned in the body and neither saved nor read there is gone after the
  block, since only saved values leave a trace; a warning at its assignment names it
  and the fix, before the `NameError` the next line would meet.

It is passed to nnsight through the `tracer_cls` extension point of `trace()`; a
remote trace keeps nnsight's own tracer.
"""

from __future__ import annotations

import ast
import warnings
from typing import Any

from nnsight.intervention.tracer import InterleavingTracer

_MISSING = object()


class UnsavedWarning(UserWarning):
    """A variable a trace assigned and never saved or read: it does not leave the block."""


class Tracer(InterleavingTracer):
    """An `InterleavingTracer` that names a missing prompt and warns of a value assigned and never saved."""

    def execute(self, code: Any) -> None:
        frame = self.info.frame
        unread = unread_assignments(self.node) if self.node is not None else {}
        before = {name: frame.f_locals.get(name, _MISSING) for name in unread}
        # No rows: keywords alone (`max_new_tokens=5`) are no prompt.
        bare = not self.args and not self.envoy._batch_size(**self.kwargs)
        try:
            super().execute(code)
        except ValueError as error:
            if bare and "outside of interleaving" in str(error):
                given = f" (only the keyword(s) {', '.join(f'{key}=' for key in self.kwargs)})" if self.kwargs else ""
                raise ValueError(
                    f"trace() needs a prompt{given}: with none, its body runs outside the model, so no value can be "
                    "read there; pass one, model.trace(prompt), or read inside `with tracer.invoke(prompt):` blocks"
                ) from error
            raise
        for name, line in unread.items():
            if frame.f_locals.get(name, _MISSING) is before[name]:
                warnings.warn_explicit(
                    f"{name!r} is assigned in the trace and neither saved nor read there, so it does not leave the "
                    f"block: after it, {name} is undefined (NameError) or keeps its earlier value; save it where it "
                    f"is assigned, `{name} = (...).save()`",
                    UnsavedWarning,
                    frame.f_code.co_filename,
                    line,
                )


def unread_assignments(node: ast.AST) -> dict[str, int]:
    """Names a `with` block's body assigns and never reads, mapped to the line of their first assignment.

    Names starting with `_` are left out, as Python's convention for a value not used.
    """
    stored: dict[str, int] = {}
    loaded: set[str] = set()
    for statement in getattr(node, "body", []):
        for child in _walk(statement):
            if isinstance(child, (ast.Assign, ast.AnnAssign)) and not _saves(child.value):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                for target in targets:
                    for name in _names(target):
                        stored.setdefault(name, child.lineno)
        # A read anywhere counts, a nested function's or an augmented assignment's included.
        for child in ast.walk(statement):
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                loaded.add(child.id)
            elif isinstance(child, ast.AugAssign):
                loaded.update(_names(child.target))
    return {name: line for name, line in stored.items() if name not in loaded and not name.startswith("_")}


def _saves(value: ast.AST | None) -> bool:
    """Whether an assigned expression is a save (`(...).save()`, `nnsight.save(...)`), which leaves the block.

    Such an assignment in a branch the run does not take leaves the name as it was, which is no mistake.
    """
    if not isinstance(value, ast.Call):
        return False
    function = value.func
    return (isinstance(function, ast.Attribute) and function.attr == "save") or (
        isinstance(function, ast.Name) and function.id == "save"
    )


def _walk(node: ast.AST):
    """`ast.walk` that does not enter a nested function, class, lambda or comprehension: what they assign is theirs."""
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(
            child,
            (
                ast.FunctionDef,
                ast.AsyncFunctionDef,
                ast.ClassDef,
                ast.Lambda,
                ast.ListComp,
                ast.SetComp,
                ast.DictComp,
                ast.GeneratorExp,
            ),
        ):
            continue
        yield from _walk(child)


def _names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _names(element)]
    if isinstance(target, ast.Starred):
        return _names(target.value)
    return []

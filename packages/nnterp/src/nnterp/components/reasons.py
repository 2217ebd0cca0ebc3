"""Reason strings shared by the families that mark a value unavailable, and the child-module predicates."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

PARALLEL = "a parallel block: the attention and the MLP read the same input, so there is no stream between them"
POST_NORM_ATTENTION = "a post-norm block: no norm feeds the attention, which reads the block input itself"
POST_NORM_MLP = "a post-norm block: no norm feeds the MLP, which reads the stream after the attention add"
NOT_ON_INTERFACE = "this attention does its own arithmetic instead of calling the shared attention interface"
DEFAULT_CONTRIBUTION = (
    "the default family cannot tell what this sublayer adds to the stream; "
    "add a family module (site/docs/developing/adding-a-family.md)"
)
DEFAULT_NORM = (
    "the default family cannot tell which module norms the MLP's input; "
    "add a family module (site/docs/developing/adding-a-family.md)"
)
DEFAULT_HEAD = (
    "the default family cannot tell what the model does after the head; "
    "add a family module (site/docs/developing/adding-a-family.md)"
)


def needs_child(name: str, kind: str = "block") -> Callable[[Any], str | None]:
    """A predicate: the value reads child module `name`, which this envoy may lack."""

    def predicate(envoy: Any) -> str | None:
        if name in envoy.__dict__:
            return None
        return f"no {name} module on this {kind}"

    predicate.__name__ = f"needs_{name}"
    return predicate

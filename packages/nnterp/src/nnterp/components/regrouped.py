"""`Regrouping`: the envoy of an inner model whose blocks the family registers under one list at load.

Some models hold no single list of blocks in forward order (XLM's parallel lists of
sublayers, HRM-Text's two stacks). The family then moves the existing modules under a
new `layers` list before the envoy mirrors the module's children, and again when the
real weights replace the meta ones; the forward keeps reaching the modules where it
always did, so nothing it computes changes.
"""

from __future__ import annotations

from typing import Any

from .standard import Plain


class Regrouping(Plain):
    """An inner model's envoy that calls `regroup(module)` before mirroring its children, on every load and dispatch.

    `regroup` must be idempotent: it returns at once where the module already holds its
    `layers` list.
    """

    @staticmethod
    def regroup(module: Any) -> None:
        raise NotImplementedError("a Regrouping envoy names the function that registers its blocks")

    def __init__(self, module: Any, *args: Any, **kwargs: Any) -> None:
        self.regroup(module)
        super().__init__(module, *args, **kwargs)

    def _update(self, module: Any) -> None:
        self.regroup(module)
        super()._update(module)

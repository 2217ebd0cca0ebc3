"""`Regrouping`: an envoy whose module the family regroups at load, before the envoy mirrors it.

Some models hold no single list of blocks in forward order (XLM's parallel lists of
sublayers, HRM-Text's two stacks), or hold a block's modules under names or lists the
standard tree does not read (LongCat-Flash's two halves, GIT's two `output` modules).
The family then moves the existing modules where the tree reads them before the
envoy mirrors the module's children, and again when the real weights replace the
meta ones; the forward keeps reaching the modules where it always did, so nothing it
computes changes.
"""

from __future__ import annotations

from typing import Any


class Regrouping:
    """An envoy mixin that calls `regroup(module)` before mirroring the module's children, on every load and dispatch.

    A family names the envoy base after it (`class Body(Regrouping, Plain)`,
    `class Layer(Regrouping, Layer)`) and its function as `regroup =
    staticmethod(...)`. `regroup` must be idempotent: it returns at once where the
    module already holds its regrouped modules.
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

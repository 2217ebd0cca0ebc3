"""Parallel blocks on vLLM: the attention and the MLP read one normed stream, and the block adds both.

There is no stream between the sublayers, so ``layer_mid`` is unavailable, and the
MLP reads the attention's norm (``input_layernorm``) unless the block has a norm of
its own for it. `ParallelLayer` is a block vLLM implements itself (``[tokens, ...]``
rows), `BackendParallelLayer` one it runs through its transformers backend.
"""

from __future__ import annotations

from nnterp.components import PARALLEL, Residual, needs_child, unavailable

from .layer import Layer
from .transformers_backend import Batched
from .transformers_backend import Layer as BackendLayer
from .values import Flat

__all__ = ["BackendParallelLayer", "ParallelLayer"]


class ParallelLayer(Layer):
    """A parallel block vLLM implements: one norm feeds both sublayers."""

    layer_mid = unavailable(PARALLEL)

    @Flat(
        "input_layernorm.output",
        description="The normed stream entering the MLP, the attention's own",
        unavailable=needs_child("input_layernorm"),
    )
    def mlp_norm_output(self, rows) -> Residual:
        return rows


class BackendParallelLayer(BackendLayer):
    """A parallel transformers block run by the backend: one norm feeds both sublayers."""

    layer_mid = unavailable(PARALLEL)

    @Batched(
        "input_layernorm.output",
        description="The normed stream entering the MLP, the attention's own",
        unavailable=needs_child("input_layernorm"),
    )
    def mlp_norm_output(self, rows) -> Residual:
        return rows

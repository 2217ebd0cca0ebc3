"""Scaled contributions on vLLM: the block adds ``residual_multiplier`` times what a sublayer returns.

Granite and HyperCLOVA X (muP) multiply each sublayer's result by the block's
``residual_multiplier`` before the add. The contribution is that product, read at the
sublayer's output or, where the block norms the result first (`POST_NORM`, when the
block has it), at that norm's output; a write is divided by the multiplier before the
block multiplies it again.
"""

from __future__ import annotations

from typing import Any

from nnterp.components import Residual

from .attention import Attention
from .mlp import Mlp
from .moe import Moe
from .values import Flat

__all__ = ["ScaledAttention", "ScaledMlp", "ScaledMoe", "residual_multiplier"]


def residual_multiplier(envoy: Any) -> float:
    """The factor the block multiplies `envoy`'s result by before the add."""
    return envoy.parent._module.residual_multiplier


def _contribution(envoy: Any) -> str:
    norm = envoy.POST_NORM
    if norm is not None and hasattr(envoy.parent._module, norm):
        return f"../{norm}.output"
    return "output"


class ScaledAttention(Attention):
    """An attention whose result the block scales by ``residual_multiplier``; `POST_NORM` names a norm it passes first."""

    POST_NORM: str | None = None

    @Flat(_contribution, description="What the attention adds to the residual stream: its result, scaled")
    def attention_output(self, rows) -> Residual:
        return rows * residual_multiplier(self)

    @attention_output.postprocess
    def attention_output(self, value):
        return value / residual_multiplier(self)


class ScaledMlp(Mlp):
    """An MLP whose result the block scales by ``residual_multiplier``; `POST_NORM` names a norm it passes first."""

    POST_NORM: str | None = None

    @Flat(_contribution, description="What the MLP adds to the residual stream: its result, scaled")
    def mlp_output(self, rows) -> Residual:
        return rows * residual_multiplier(self)

    @mlp_output.postprocess
    def mlp_output(self, value):
        return value / residual_multiplier(self)


class ScaledMoe(Moe):
    """A mixture whose result the block scales by ``residual_multiplier``: its contribution is that product."""

    @Flat("output", description="What the MLP adds to the residual stream: its result, scaled")
    def mlp_output(self, rows) -> Residual:
        return rows * residual_multiplier(self)

    @mlp_output.postprocess
    def mlp_output(self, value):
        return value / residual_multiplier(self)

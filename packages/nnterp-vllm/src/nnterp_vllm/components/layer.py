"""The decoder block on vLLM: `Layer` for a block called with the stream, `FusedLayer` for one carrying it as two halves.

Most of vLLM's blocks fuse each residual add into the norm that follows: they are
called ``forward(positions, hidden_states, residual)``, return
``(hidden_states, residual)``, and the stream is the pair's sum. Others take and
return the stream itself. The return type does not say which, so a family picks the
base.
"""

from __future__ import annotations

from typing import Any

import torch

from nnterp.components import BlockModules, Residual, Standard, needs_child

from .values import Flat, Sum


class _LayerInput(Flat):
    """The stream argument of the block's call: by position, else by keyword."""

    def take(self, obj: Any, raw: Any, attribute: str, select: Any) -> torch.Tensor:
        args, kwargs = raw
        return args[obj.STREAM] if obj.STREAM < len(args) else kwargs[obj.STREAM_NAME]

    def give(self, obj: Any, raw: Any, attribute: str, select: Any, rows: torch.Tensor) -> Any:
        args, kwargs = raw
        if obj.STREAM < len(args):
            return (*args[: obj.STREAM], rows, *args[obj.STREAM + 1 :]), kwargs
        return args, {**kwargs, obj.STREAM_NAME: rows}


class Layer(BlockModules, Standard):
    """A block called with the stream (after the positions when `STREAM` is 1) that returns it.

    `returns_tuple` says whether the stream comes back as the first element of a
    pair ``(hidden_states, residual)`` whose second element the next block and the
    final norm ignore (the block keeps vLLM's fused signature without fusing). The
    norm and MLP boundaries read ``input_layernorm``, ``post_attention_layernorm``
    and ``mlp`` under their standard names. A standard module the block lacks is
    refused in the wording of every engine's blocks (`BlockModules`).
    """

    #: The stream's positional index in the call (0, or 1 after the positions).
    STREAM = 0
    #: Its keyword name, for a caller that passes it by keyword.
    STREAM_NAME = "hidden_states"
    returns_tuple = False

    def skip_with(self, stream: Any) -> Any:
        """`stream` (``[1, tokens, hidden_size]``) packed as this block's output, for `Envoy.skip`."""
        rows = stream[0]
        return (rows, rows) if self.returns_tuple else rows

    @_LayerInput("inputs", description="The residual stream entering the block")
    def layer_input(self, rows) -> Residual:
        return rows

    @Flat(
        "input_layernorm.output",
        description="The normed stream the attention reads",
        unavailable=needs_child("input_layernorm"),
    )
    def attention_norm_output(self, rows) -> Residual:
        return rows

    @Flat(
        "post_attention_layernorm.input",
        description="The residual stream after the attention add",
        unavailable=needs_child("post_attention_layernorm"),
    )
    def layer_mid(self, rows) -> Residual:
        return rows

    @Flat(
        "post_attention_layernorm.output",
        description="The normed stream entering the MLP",
        unavailable=needs_child("post_attention_layernorm"),
    )
    def mlp_norm_output(self, rows) -> Residual:
        return rows

    @Flat("mlp.input", description="What the MLP is called with", unavailable=needs_child("mlp"))
    def mlp_input(self, rows) -> Residual:
        return rows

    @Flat("output", description="The residual stream leaving the block")
    def layer_output(self, rows) -> Residual:
        return rows


def _fused_inputs(envoy: Any) -> tuple:
    return envoy.HIDDEN, envoy.RESIDUAL


def _pair(envoy: Any) -> tuple:
    return 0, 1


class FusedLayer(Layer):
    """A block called ``forward(positions, hidden_states, residual)`` that returns ``(hidden_states, residual)``.

    The stream is the pair's sum, on the way in (``residual`` is ``None`` at block 0)
    and on the way out; the norms are called with the pair and add it in place.
    `HIDDEN` and `RESIDUAL` are the halves' positional indices and keyword names.
    """

    HIDDEN = (1, "hidden_states")
    RESIDUAL = (2, "residual")

    def skip_with(self, stream: Any) -> Any:
        """`stream` packed as this block's output: the stream and a zero residual."""
        rows = stream[0]
        return rows, torch.zeros_like(rows)

    @Sum("inputs", description="The residual stream entering the block", parts=_fused_inputs)
    def layer_input(self, rows) -> Residual:
        return rows

    @Sum(
        "post_attention_layernorm.inputs",
        description="The residual stream after the attention add",
        unavailable=needs_child("post_attention_layernorm"),
        parts=((0, "x"), (1, "residual")),
    )
    def layer_mid(self, rows) -> Residual:
        return rows

    @Sum("output", description="The residual stream leaving the block", parts=_pair)
    def layer_output(self, rows) -> Residual:
        return rows


__all__ = ["FusedLayer", "Layer"]

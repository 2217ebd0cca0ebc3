"""The decoder block: the residual stream entering and leaving it and the boundaries between its sublayers.

One identity defines the two contributions on every family:
`layer_input + attention_output + mlp_output == layer_output`.
"""

from __future__ import annotations

import inspect
from typing import Any

import torch
from jaxtyping import Float
from torch import Tensor

from .eproperty import EProperty
from .names import BlockModules
from .reasons import needs_child
from .standard import BATCH, HIDDEN, SEQ, STREAMS, TOKENS, Standard, first_tensor, named_layout, rewrap

# The residual stream, and anything added to it: one vector per token.
Residual = named_layout("Residual", Float[Tensor, f"{BATCH} {SEQ} {HIDDEN}"])
# The stream with batch and sequence flattened into one token axis (OPT's feed-forward path).
FlatResidual = named_layout("FlatResidual", Float[Tensor, f"{TOKENS} {HIDDEN}"])
# Several parallel copies of the stream (DeepSeek-V4's hyper-connections).
Streams = named_layout("Streams", Float[Tensor, f"{BATCH} {SEQ} {STREAMS} {HIDDEN}"])
# One weight per token and stream (DeepSeek-V4's hyper-connection weights that spread a contribution over the streams).
StreamWeights = named_layout("StreamWeights", Float[Tensor, f"{BATCH} {SEQ} {STREAMS}"])
# One stream-to-stream matrix per token (DeepSeek-V4's hyper-connection mixing of the residual streams).
StreamMixing = named_layout("StreamMixing", Float[Tensor, f"{BATCH} {SEQ} {STREAMS} {STREAMS}"])


class Layer(BlockModules, Standard):
    """A decoder block, `model.layers[i]`.

    `returns_tuple` says whether the block returns `(hidden_states, ...)` rather than
    the tensor; `layer_output` unwraps either way and `skip_with` packs a stream the
    way the block returns it.
    """

    returns_tuple = False

    def skip_with(self, stream: Any) -> Any:
        """`stream` packed as this block's output, for `Envoy.skip`."""
        return (stream,) if self.returns_tuple else stream

    @EProperty("input", description="The residual stream entering the block")
    def layer_input(self, value) -> Residual:
        return value

    @EProperty(
        "input_layernorm.output",
        description="The normed stream the attention reads",
        unavailable=needs_child("input_layernorm"),
    )
    def attention_norm_output(self, value) -> Residual:
        return value

    @EProperty(
        "post_attention_layernorm.input",
        description="The residual stream after the attention add",
        unavailable=needs_child("post_attention_layernorm"),
    )
    def layer_mid(self, value) -> Residual:
        return value

    @EProperty(
        "post_attention_layernorm.output",
        description="The normed stream entering the MLP",
        unavailable=needs_child("post_attention_layernorm"),
    )
    def mlp_norm_output(self, value) -> Residual:
        return value

    @EProperty("mlp.input", description="What the MLP is called with", unavailable=needs_child("mlp"))
    def mlp_input(self, value) -> Residual:
        return value

    @EProperty("output", description="The residual stream leaving the block")
    def layer_output(self, value) -> Residual:
        return first_tensor(value)

    @layer_output.postprocess
    def layer_output(self, value):
        return rewrap(self, value)


def returns_tuple_by_annotation(block: type) -> bool:
    """Whether `block.forward` returns `(hidden_states, attn_weights)` rather than the tensor, by its annotation.

    A family sets its `Layer.returns_tuple` with it where a release changed what the block returns.
    """
    hint = inspect.signature(block.forward).return_annotation
    return hint not in (torch.Tensor, "torch.Tensor")

"""A block inside hyper-connections: `hc_mult` parallel residual streams, collapsed before each sublayer.

A hyper-connection module (`attn_hc` before the attention, `ffn_hc` before the MLP)
reads every stream `S` (`[batch, seq, streams, hidden_size]`) and returns, per token,
a weight per stream `post` and the streams collapsed into one by another weight per
stream; with a mixing matrix `comb` where the family keeps one. The sublayer runs on
the norm of the collapsed stream and its output `c` comes back as

`S' = post[..., None] * c[..., None, :] + comb^T @ S`

(`S' = post[..., None] * c[..., None, :] + S` without a mixing matrix). So the
streams are `Streams` (`layer_input`, `layer_mid`, `layer_output`), the
contributions stay `Residual` (`attention_output`, `mlp_output`), `attention_post`
and `mlp_post` are `StreamWeights` and `attention_comb` and `mlp_comb` are
`StreamMixing`.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from .eproperty import EProperty
from .layer import Layer, Residual, StreamMixing, Streams, StreamWeights
from .reasons import needs_child
from .standard import first_tensor, rewrap


def _stream_count(envoy: Any) -> int:
    return envoy._module.attn_hc.hc_mult


class HyperConnectionLayer(Layer):
    """A block whose residual stream is `hc_mult` parallel streams, the stream axis third.

    `COMB` says whether the hyper-connections return a mixing matrix after the stream
    weights (the collapsed stream comes last either way). `skip_with` takes every
    stream, or one `[batch, seq, hidden_size]` stream that becomes every stream.
    """

    COMB = True

    def skip_with(self, stream: Any) -> Any:
        """`stream` packed as the block returns it; a `[batch, seq, hidden_size]` one is copied into every stream."""
        if stream.dim() == 3:
            stream = stream.unsqueeze(2).expand(-1, -1, _stream_count(self), -1).contiguous()
        return super().skip_with(stream)

    @EProperty("input", description="Every residual stream entering the block")
    def layer_input(self, value) -> Streams:
        return value

    @EProperty(
        "attn_hc.output",
        select=-1,
        description="The streams collapsed into the one the attention's norm reads",
        unavailable=needs_child("attn_hc"),
    )
    def attention_collapsed(self, value) -> Residual:
        return value

    @EProperty(
        "attn_hc.output",
        select=0,
        description="The weight per stream that spreads the attention's output over the streams",
        unavailable=needs_child("attn_hc"),
    )
    def attention_post(self, value) -> StreamWeights:
        return value

    @EProperty(
        "attn_hc.output",
        select=1,
        description="The matrix that mixes the streams entering the block before the attention's add",
        unavailable=lambda envoy: None if envoy.COMB else "these hyper-connections add the streams back unmixed",
    )
    def attention_comb(self, value) -> StreamMixing:
        return value

    @EProperty(
        "ffn_hc.input",
        description="Every residual stream after the attention's add",
        unavailable=needs_child("ffn_hc"),
    )
    def layer_mid(self, value) -> Streams:
        return value

    @EProperty(
        "ffn_hc.output",
        select=-1,
        description="The streams collapsed into the one the MLP's norm reads",
        unavailable=needs_child("ffn_hc"),
    )
    def mlp_collapsed(self, value) -> Residual:
        return value

    @EProperty(
        "ffn_hc.output",
        select=0,
        description="The weight per stream that spreads the MLP's output over the streams",
        unavailable=needs_child("ffn_hc"),
    )
    def mlp_post(self, value) -> StreamWeights:
        return value

    @EProperty(
        "ffn_hc.output",
        select=1,
        description="The matrix that mixes the streams after the attention's add before the MLP's add",
        unavailable=lambda envoy: None if envoy.COMB else "these hyper-connections add the streams back unmixed",
    )
    def mlp_comb(self, value) -> StreamMixing:
        return value

    @EProperty("output", description="Every residual stream leaving the block")
    def layer_output(self, value) -> Streams:
        return first_tensor(value)

    @layer_output.postprocess
    def layer_output(self, value):
        return rewrap(self, value)


def collapse_through(head: str) -> Callable[[Any, Any], Any]:
    """`collapse_streams` for a model whose collapsing module sits at the envoy path `head` from the root."""
    module = attrgetter(head)

    def collapse_streams(model: Any, hidden: Any) -> Any:
        """One stream from a `Streams` value, as the model's `hc_head` collapses the last block's; a `Residual` as is."""
        if hidden.dim() == 4:
            return module(model)(hidden)
        return hidden

    return collapse_streams


#: One stream from a `Streams` value through the model's `model.hc_head`; a `Residual` as is.
collapse_streams = collapse_through("model.hc_head")

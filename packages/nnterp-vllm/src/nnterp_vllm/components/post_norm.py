"""Post-norm blocks on vLLM: no norm feeds a sublayer, and each adds its post-norm's output.

h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h)).
``attention_norm_output`` and ``mlp_norm_output`` are unavailable, ``layer_mid`` is
what the MLP reads, and the contributions are the sibling post-norms' outputs. The
plain classes read ``[tokens, ...]`` rows of a block vLLM implements; the
``Backend`` ones a transformers block its backend runs.
"""

from __future__ import annotations

from nnterp.components import POST_NORM_ATTENTION, POST_NORM_MLP, Residual, needs_child, unavailable

from . import transformers_backend as backend
from .attention import Attention
from .layer import Layer
from .mlp import Mlp
from .values import Flat

__all__ = [
    "BackendPostNormAttention",
    "BackendPostNormLayer",
    "BackendPostNormMlp",
    "PostNormAttention",
    "PostNormLayer",
    "PostNormMlp",
]


class PostNormLayer(Layer):
    """A post-norm block vLLM implements: the MLP reads the stream after the attention add."""

    attention_norm_output = unavailable(POST_NORM_ATTENTION)
    mlp_norm_output = unavailable(POST_NORM_MLP)

    @Flat("mlp.input", description="The residual stream after the attention add", unavailable=needs_child("mlp"))
    def layer_mid(self, rows) -> Residual:
        return rows


class PostNormAttention(Attention):
    """The attention of a post-norm block; what the block adds is ``post_attention_layernorm``'s output."""

    @Flat("../post_attention_layernorm.output", description="What the attention adds to the residual stream")
    def attention_output(self, rows) -> Residual:
        return rows


class PostNormMlp(Mlp):
    """The MLP of a post-norm block; what the block adds is ``post_feedforward_layernorm``'s output."""

    @Flat("../post_feedforward_layernorm.output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows


class BackendPostNormLayer(backend.Layer):
    """A post-norm transformers block run by the backend: the MLP reads the stream after the attention add."""

    attention_norm_output = unavailable(POST_NORM_ATTENTION)
    mlp_norm_output = unavailable(POST_NORM_MLP)

    @backend.Batched(
        "mlp.input", description="The residual stream after the attention add", unavailable=needs_child("mlp")
    )
    def layer_mid(self, rows) -> Residual:
        return rows


class BackendPostNormAttention(backend.Attention):
    """The attention of a post-norm transformers block; what the block adds is its post-norm's output."""

    @backend.Batched("../post_attention_layernorm.output", description="What the attention adds to the residual stream")
    def attention_output(self, rows) -> Residual:
        return rows


class BackendPostNormMlp(backend.Mlp):
    """The MLP of a post-norm transformers block; what the block adds is its post-norm's output."""

    @backend.Batched("../post_feedforward_layernorm.output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows

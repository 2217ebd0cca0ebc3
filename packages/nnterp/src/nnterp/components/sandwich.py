"""Blocks that norm a sublayer's output before adding it: sandwich and post-norm blocks.

A sandwich block (the Gemma line) norms each sublayer's input and its output:
`h = x + post_attention_layernorm(self_attn(input_layernorm(x)))`, then the same around
the MLP with `pre_feedforward_layernorm` and `post_feedforward_layernorm`. A post-norm
block (OLMo 2) keeps only the output norms: the sublayers read the stream itself.

Where the output norm's result is what the block adds, that result is the sublayer's
contribution, read on the sibling norm (`../<norm>.output`), so the identity
`layer_input + attention_output + mlp_output == layer_output` holds bit for bit.
"""

from __future__ import annotations

from typing import Any

from .attention import Attention
from .eproperty import EProperty, unavailable
from .layer import Layer, Residual
from .mlp import Mlp
from .reasons import POST_NORM_ATTENTION, POST_NORM_MLP

#: The MLP's pre-norm of a sandwich block.
PRE_FEEDFORWARD = "pre_feedforward_layernorm"


def normed_contribution(norm: str, sublayer: str) -> EProperty:
    """A sublayer's contribution read on its sibling output norm `norm`.

    `sublayer` is ``"attention"`` or ``"mlp"``; the value is named after it
    (`attention_output` or `mlp_output`), so assigning the result in a subclass of
    `Attention` or `Mlp` replaces the base's module output.
    """
    if sublayer not in ("attention", "mlp"):
        raise ValueError(f"a sublayer is 'attention' or 'mlp', not {sublayer!r}")
    what = "attention" if sublayer == "attention" else "MLP"

    def contribution(self: Any, value: Any) -> Residual:
        return value

    contribution.__name__ = f"{sublayer}_output"
    return EProperty(
        f"../{norm}.output",
        description=f"What the {what} adds to the residual stream: the output of the block's {norm}",
    )(contribution)


class SandwichLayer(Layer):
    """A block whose MLP reads `pre_feedforward_layernorm`: the stream between the sublayers enters it."""

    @EProperty(f"{PRE_FEEDFORWARD}.input", description="The residual stream after the attention add")
    def layer_mid(self, value) -> Residual:
        return value

    @EProperty(f"{PRE_FEEDFORWARD}.output", description="The normed stream entering the MLP")
    def mlp_norm_output(self, value) -> Residual:
        return value


class PostNormLayer(Layer):
    """A post-norm block: no norm feeds either sublayer, and the MLP reads the stream after the attention add."""

    attention_norm_output = unavailable(POST_NORM_ATTENTION)
    mlp_norm_output = unavailable(POST_NORM_MLP)

    @EProperty("mlp.input", description="The residual stream after the attention add")
    def layer_mid(self, value) -> Residual:
        return value


class SandwichAttention(Attention):
    """An attention whose output the block norms with `post_attention_layernorm` before the add.

    Sandwich blocks (Gemma 2) and post-norm blocks (OLMo 2) both spell the norm so.
    """

    attention_output = normed_contribution("post_attention_layernorm", "attention")


class SandwichMlp(Mlp):
    """An MLP whose output the block norms with `post_feedforward_layernorm` before the add.

    Sandwich blocks (Gemma 2) and post-norm blocks (OLMo 2) both spell the norm so.
    """

    mlp_output = normed_contribution("post_feedforward_layernorm", "mlp")

"""Sandwich blocks whose adds weigh both terms by the depth of the add (Beam).

The `k`-th residual add of the model (counting from 2 at the first block's attention)
computes `stream * sqrt((k - 1) / k) + normed / sqrt(k)`, where `normed` is the
sublayer's post-normed output. A contribution is what the add adds: the post-norm's
output times `1 / sqrt(k)`, the product the add forms, bit for bit. The stream enters
the add already weighted, so the block's identity reads
`layer_mid = residual_weight(attention) * layer_input + attention_output` and
`layer_output = residual_weight(mlp) * layer_mid + mlp_output`.

An assignment to a contribution, or an in-place edit of it, is divided by the add's
weight before the add weighs it again; an unedited read leaves the norm's output
untouched.
"""

from __future__ import annotations

import math
from typing import Any

from .eproperty import EProperty
from .sandwich import SandwichAttention, SandwichLayer
from .scaled import scaled_value

#: The block attribute holding the ordinal of the add after the attention.
ATTENTION_ADD = "attn_residual_add_idx"
#: The block attribute holding the ordinal of the add after the MLP.
MLP_ADD = "mlp_residual_add_idx"


def contribution_weight(block: Any, add: str) -> float:
    """The weight the add named by block attribute `add` gives the sublayer's normed output."""
    return 1.0 / math.sqrt(getattr(block, add))


def residual_weight(block: Any, add: str) -> float:
    """The weight the add named by block attribute `add` gives the stream entering it."""
    ordinal = getattr(block, add)
    return math.sqrt((ordinal - 1) / ordinal)


def depth_scaled_contribution(norm: str, sublayer: str, add: str) -> EProperty:
    """A sublayer's contribution: its sibling post-norm `norm`'s output times the weight of the add `add`.

    `sublayer` is ``"attention"`` or ``"mlp"`` and names the value (`attention_output`
    or `mlp_output`).
    """
    if sublayer not in ("attention", "mlp"):
        raise ValueError(f"a sublayer is 'attention' or 'mlp', not {sublayer!r}")
    what = "attention" if sublayer == "attention" else "MLP"

    def weight(envoy: Any) -> float:
        return contribution_weight(envoy.parent._module, add)

    return scaled_value(
        f"../{norm}.output",
        weight,
        f"What the {what} adds to the residual stream: the block's {norm} output times the add's depth weight",
        name=f"{sublayer}_output",
    )


class DepthScaledLayer(SandwichLayer):
    """A sandwich block whose two adds weigh the stream and the normed output by their depth."""


class DepthScaledAttention(SandwichAttention):
    """An attention whose post-normed output the block adds with the depth weight of its add."""

    attention_output = depth_scaled_contribution("post_attention_layernorm", "attention", ATTENTION_ADD)


#: The MLP's (or the mixture's) contribution on a depth-scaled block.
DEPTH_SCALED_MLP_OUTPUT = depth_scaled_contribution("post_feedforward_layernorm", "mlp", MLP_ADD)


__all__ = [
    "ATTENTION_ADD",
    "DEPTH_SCALED_MLP_OUTPUT",
    "MLP_ADD",
    "DepthScaledAttention",
    "DepthScaledLayer",
    "contribution_weight",
    "depth_scaled_contribution",
    "residual_weight",
]

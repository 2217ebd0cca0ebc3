"""Muse Spark's text model (`MuseSparkTextModel`, model type `muse_spark_text`).

`h = a_1 * x + b_1 * post_attention_layernorm(self_attn(input_layernorm(x)));
out = a_2 * h + b_2 * post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h)))`.

Muse Glimmer's sandwich block (`nnterp.families.muse_glimmer_text`) whose two adds are
gates (`post_attention_residual_gate`, `post_feedforward_residual_gate`): each holds one
parameter per channel `g`, and with `w = g / residual_gate_temperature` weighs the
sublayer's post-normed output by `b = sigmoid(w)` and the stream by
`a = sqrt(max(sigmoid(-w) * (1 + b), eps))`. A contribution is the post-norm's output
times `b`, the product the add forms, so `layer_mid` is not
`layer_input + attention_output`; an assignment to a contribution is divided by `b`
before the add weighs it again. The attention norms each head's output with a
weightless norm before the sigmoid gate of `gate_proj`, so `attention_premix` is the
gated product, not `attention_head_outputs`. The blocks `mlp_layer_types` marks
`"sparse"` hold a mixture: its router (`gate`) scores the stream in float32 with a
linear layer scaled by `output_multiplier` (the logits), a sigmoid, a correction bias
for the choice of the top `top_k` only, and renormalizes the chosen scores; the stream
is pooled down to `moe_hidden_size` (`pre_expert_proj`, then a norm), the experts run
at that width, each expert's output normed, and `post_expert_proj` projects their
weighted sum back, so no slot output is at the stream's width. The other blocks hold a
dense gated MLP. transformers has no causal-LM class for `muse_spark_text`: the text
model is served only inside its wrapper.

The `MuseSparkForConditionalGeneration` wrapper (`muse_spark`) is served by
`nnterp.families.muse_spark`.
"""

from typing import Any

import torch
from transformers.models.muse_spark.modeling_muse_spark import (
    MuseSparkMoE,
    MuseSparkTextAttention,
    MuseSparkTextDecoderLayer,
    MuseSparkTextMLP,
)

from nnterp.components import EProperty, Moe, SandwichAttention, SandwichLayer, SandwichMlp, unavailable
from nnterp.components.scaled import scaled_value
from nnterp.families import muse_glimmer_text
from nnterp.families.muse_glimmer_text import project_on_vocab

__all__ = ["ENVOYS", "RENAME", "Attention", "Mlp", "Moe", "project_on_vocab"]

RENAME = dict(muse_glimmer_text.RENAME)

#: The block's gate after each sublayer, by the sublayer's name.
_GATES = {"attention": "post_attention_residual_gate", "mlp": "post_feedforward_residual_gate"}
#: The block's post-norm before each gate, by the sublayer's name.
_NORMS = {"attention": "post_attention_layernorm", "mlp": "post_feedforward_layernorm"}


def _gate_weights(gate: Any) -> tuple[torch.Tensor, torch.Tensor]:
    """`(a, b)` of a residual gate module: the stream's weight and the contribution's, per channel, as it computes them."""
    w = gate.gate / gate.temperature
    beta = torch.sigmoid(w)
    alpha = torch.sqrt(torch.clamp(torch.sigmoid(-w) * (1.0 + beta), min=gate.eps))
    return alpha, beta


def _gated_contribution(sublayer: str) -> EProperty:
    """A sublayer's contribution: its sibling post-norm's output times the gate's contribution weight `b`."""
    what = "attention" if sublayer == "attention" else "MLP"

    def weight(envoy: Any) -> torch.Tensor:
        return _gate_weights(getattr(envoy.parent._module, _GATES[sublayer]))[1]

    return scaled_value(
        f"../{_NORMS[sublayer]}.output",
        weight,
        f"What the {what} adds to the residual stream: the block's {_NORMS[sublayer]} output times the "
        "gate's per-channel contribution weight",
        name=f"{sublayer}_output",
    )


class Attention(SandwichAttention):
    """Muse Spark's gated attention, its head outputs normed; the contribution the gated post-norm."""

    attention_output = _gated_contribution("attention")


class Mlp(SandwichMlp):
    """Muse Spark's dense gated MLP; the contribution the gated post-norm."""

    mlp_output = _gated_contribution("mlp")


#: Why a mixture slot has no output at the stream's width.
_POOLED = (
    "this mixture has no expert_outputs at the stream's width: the experts run at the pooled width "
    "moe_hidden_size, and post_expert_proj projects their weighted sum back"
)


class Moe(Moe):
    """Muse Spark's mixture: a scaled sigmoid router with a correction bias (`gate`), experts at a pooled width."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    # The logits the sigmoid scores: the linear layer's output times `output_multiplier`.
    LOGITS = "router_logits_1"

    mlp_output = _gated_contribution("mlp")
    expert_outputs = unavailable(_POOLED)

    @property
    def routed_key(self) -> str:
        """Where the routed sum is read: the projection back to the stream's width."""
        return "post_expert_proj.output"


ENVOYS = {
    # The block keeps Gemma 2's norm names, so the sandwich block holds as it is; the gates weigh the contributions.
    MuseSparkTextDecoderLayer: SandwichLayer,
    MuseSparkTextAttention: Attention,
    MuseSparkTextMLP: Mlp,
    MuseSparkMoE: Moe,
}

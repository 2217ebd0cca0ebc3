"""ESM C (`EsmcForMaskedLM`, model type `esmc`): a bidirectional pre-norm protein encoder whose adds divide each term.

`h = x + self_attn(input_layernorm(x)) / s; out = h + mlp(post_attention_layernorm(h)) / s`,
`s = sqrt(num_hidden_layers / 36)`

An encoder (`ENCODER`): it loads under `EsmcForMaskedLM` by default, or bare
(`EsmcModel`, `task="feature-extraction"`) for probing, and the same names serve both
(the trunk sits under `esmc` in the first and is the root in the second). Every
position attends to every other one; padding is masked.

The block keeps Llama's names, with LayerNorms in place of RMS norms and a gated
SiLU MLP; the attention norms its full-width queries and keys (`q_norm`, `k_norm`)
before splitting the heads and applying the rotary embedding, and calls the shared
attention interface. The block divides each sublayer's output by the residual
scale `s` (the block's `scaling_factor`) before adding it, so `attention_output` and
`mlp_output` are those quotients, the terms the adds take bit for bit, and a write is
multiplied by `s` before the block divides it again; the values inside the sublayers
are undivided. A final LayerNorm (`esmc.norm`, aliased `norm`) precedes the head,
a transform (a dense layer, GELU, a LayerNorm) then the projection onto the
vocabulary (`decoder`), whose output is the logits.
"""

from __future__ import annotations

from typing import Any

import torch
from transformers.models.esmc.modeling_esmc import EsmcAttention, EsmcLayer, EsmcMLP

from nnterp.components import Attention, EProperty, Layer, Mlp
from nnterp.components.layer import Residual
from nnterp.components.standard import first_tensor, rewrap

ENCODER = True

RENAME = {
    "esmc.embed_tokens": "embed_tokens",
    "esmc.layers": "layers",
    "esmc.norm": "norm",
}


def _residual_scale(envoy: Any) -> float:
    """The residual scale `s` the block holding `envoy` divides each sublayer's output by."""
    return envoy.parent._module.scaling_factor


def _divided(sublayer: str) -> EProperty:
    """A sublayer's contribution: its output divided by the block's residual scale, as the block's add divides it."""

    def contribution(self, value) -> Residual:
        return first_tensor(value) / _residual_scale(self)

    contribution.__name__ = f"{sublayer}_output"
    what = "attention" if sublayer == "attention" else "MLP"
    prop = EProperty(
        "output",
        description=f"What the {what} adds to the residual stream: its output divided by the block's residual scale",
    )(contribution)

    @prop.postprocess
    def contribution(self, value):
        return rewrap(self, value * _residual_scale(self))

    @prop.transform
    def contribution(self, view, raw):
        scale = _residual_scale(self)
        if torch.equal(view, first_tensor(raw) / scale):
            return raw
        scaled = view * scale
        return (scaled, *raw[1:]) if isinstance(raw, tuple) else scaled

    return prop


class EsmcSelfAttention(Attention):
    """ESM C's attention: its output, divided by the block's residual scale, is what the block adds."""

    attention_output = _divided("attention")


class EsmcFeedForward(Mlp):
    """ESM C's gated MLP: its output, divided by the block's residual scale, is what the block adds."""

    mlp_output = _divided("mlp")


ENVOYS = {EsmcLayer: Layer, EsmcAttention: EsmcSelfAttention, EsmcMLP: EsmcFeedForward}

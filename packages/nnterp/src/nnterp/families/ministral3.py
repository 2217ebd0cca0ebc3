"""Ministral 3 (`Ministral3ForCausalLM`): Llama's block with a position-dependent query scale.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Past `original_max_position_embeddings` the attention multiplies the rotated queries by Llama 4's `1
+ beta * log(1 + floor(position / original))` scale before the interface, so `attention_queries` are
the scaled queries the scores are made of.
"""

from transformers.models.ministral3.modeling_ministral3 import (
    Ministral3Attention,
    Ministral3DecoderLayer,
    Ministral3MLP,
)

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(Layer):
    """Ministral 3's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Ministral 3's attention; the rotary embedding and Llama 4's query scale, then the shared eager interface, so the base holds."""


class Mlp(Mlp):
    """Ministral 3's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


ENVOYS = {Ministral3DecoderLayer: Layer, Ministral3Attention: Attention, Ministral3MLP: Mlp}

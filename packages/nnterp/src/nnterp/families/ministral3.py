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


ENVOYS = {Ministral3DecoderLayer: Layer, Ministral3Attention: Attention, Ministral3MLP: Mlp}

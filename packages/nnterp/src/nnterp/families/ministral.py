"""Ministral (`MinistralForCausalLM`): Mistral's block with sliding-window and full-attention blocks.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

`config.layer_types` says which blocks pass `config.sliding_window` to the shared interface; their
scores are masked outside the window.
"""

from transformers.models.ministral.modeling_ministral import MinistralAttention, MinistralDecoderLayer, MinistralMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {MinistralDecoderLayer: Layer, MinistralAttention: Attention, MinistralMLP: Mlp}

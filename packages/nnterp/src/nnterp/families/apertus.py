"""Apertus (`ApertusForCausalLM`): Llama's block under its own norm names, with query/key norms and a plain MLP.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The block's pre-norms are `attention_layernorm` and `feedforward_layernorm`, aliased
`input_layernorm` and `post_attention_layernorm`. `q_norm` and `k_norm` norm each head's query and
key before the rotary embedding. The MLP is `down_proj(act_fn(up_proj(x)))` with the trainable xIELU
activation and no gate, so `mlp_neurons` is `mlp_activation` itself.
"""

from transformers.models.apertus.modeling_apertus import ApertusAttention, ApertusDecoderLayer, ApertusMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "attention_layernorm": "input_layernorm",
    "feedforward_layernorm": "post_attention_layernorm",
}


ENVOYS = {ApertusDecoderLayer: Layer, ApertusAttention: Attention, ApertusMLP: Mlp}

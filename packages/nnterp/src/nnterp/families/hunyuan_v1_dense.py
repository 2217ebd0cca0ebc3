"""Hunyuan dense (`HunYuanDenseV1ForCausalLM`): Llama's block with a per-head RMS norm on the queries and keys.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

`query_layernorm` and `key_layernorm` norm each head's query and key after the rotary embedding;
`attention_queries` and `attention_keys` are read after them, as the interface receives them.
"""

from transformers.models.hunyuan_v1_dense.modeling_hunyuan_v1_dense import (
    HunYuanDenseV1Attention,
    HunYuanDenseV1DecoderLayer,
    HunYuanDenseV1MLP,
)

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {HunYuanDenseV1DecoderLayer: Layer, HunYuanDenseV1Attention: Attention, HunYuanDenseV1MLP: Mlp}

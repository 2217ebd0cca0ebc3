"""Qwen3 (`Qwen3ForCausalLM`): Llama's block with a per-head RMS norm on the queries and keys.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

`q_norm` and `k_norm` norm each head's query and key before the rotary embedding, so
`attention_queries` and `attention_keys` are normed and rotated, as the interface receives them.
Blocks whose `layer_types` entry is `sliding_attention` pass a sliding window to the interface.

The vision-language wrappers over a Qwen3 text model (LightOnOCR, Qianfan-OCR, InternVL
3.5) are modules of their own that compose this one's `RENAME` and `ENVOYS`.
"""

from transformers.models.qwen3.modeling_qwen3 import Qwen3Attention, Qwen3DecoderLayer, Qwen3MLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {
    Qwen3DecoderLayer: Layer,
    Qwen3Attention: Attention,
    Qwen3MLP: Mlp,
}

"""Qwen2 (`Qwen2ForCausalLM`): Llama's block with biased query/key/value projections and grouped-query attention.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The keys and values are read before `repeat_kv`, so their head axis is
`num_kv_heads` wide while the queries, the pattern and the head outputs are
`num_heads` wide; query head `h` reads key/value head `h // (num_heads // num_kv_heads)`.

The vision-language wrappers over a Qwen2 text model (the Llava line, InternVL, Ovis2,
VideoLLaMA 3, GOT-OCR2) are modules of their own that compose this one's `RENAME` and
`ENVOYS`.
"""

from transformers.models.qwen2.modeling_qwen2 import Qwen2Attention, Qwen2DecoderLayer, Qwen2MLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {
    Qwen2DecoderLayer: Layer,
    Qwen2Attention: Attention,
    Qwen2MLP: Mlp,
}

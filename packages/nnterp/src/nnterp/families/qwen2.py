"""Qwen2 (`Qwen2ForCausalLM`): Llama's block with biased query/key/value projections and grouped-query attention.

The keys and values are read before `repeat_kv`, so their head axis is
`num_kv_heads` wide while the queries, the pattern and the head outputs are
`num_heads` wide; query head `h` reads key/value head `h // (num_heads // num_kv_heads)`.
"""

from transformers.models.qwen2.modeling_qwen2 import Qwen2Attention, Qwen2DecoderLayer, Qwen2MLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(Layer):
    """Qwen2's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Qwen2's attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(Mlp):
    """Qwen2's gated MLP; the base holds."""


ENVOYS = {Qwen2DecoderLayer: Layer, Qwen2Attention: Attention, Qwen2MLP: Mlp}

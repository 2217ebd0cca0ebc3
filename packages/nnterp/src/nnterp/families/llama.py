"""Llama (`LlamaForCausalLM`): the family the standard vocabulary is taken from.

Its module changes nothing but lifting the containers out of the inner `model`.
"""

from transformers.models.llama.modeling_llama import LlamaAttention, LlamaDecoderLayer, LlamaMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(Layer):
    """Llama's decoder block; it returns the bare tensor, so the base holds."""


class Attention(Attention):
    """Llama's attention; the shared eager interface and the residual added in the block, so the base holds."""


class Mlp(Mlp):
    """Llama's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


ENVOYS = {LlamaDecoderLayer: Layer, LlamaAttention: Attention, LlamaMLP: Mlp}

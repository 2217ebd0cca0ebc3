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


class Layer(Layer):
    """Ministral's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Ministral's attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(Mlp):
    """Ministral's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


ENVOYS = {MinistralDecoderLayer: Layer, MinistralAttention: Attention, MinistralMLP: Mlp}

"""Mistral (`MistralForCausalLM`): Llama's block with grouped-query attention over a sliding window.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention passes `config.sliding_window` to the shared interface, which folds the window into
the mask: `attention_scores` are masked outside it and `attention_probabilities` are zero there.
"""

from transformers.models.mistral.modeling_mistral import MistralAttention, MistralDecoderLayer, MistralMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(Layer):
    """Mistral's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Mistral's attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(Mlp):
    """Mistral's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


ENVOYS = {MistralDecoderLayer: Layer, MistralAttention: Attention, MistralMLP: Mlp}

"""Gemma (`GemmaForCausalLM`): Llama's block under Llama's names, with a scaled embedding.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The embedding module multiplies its output by `sqrt(hidden_size)`, so
`embed_tokens.output` is the scaled stream block 0 reads. The norms scale by
`1 + weight`, the MLP is gated with a tanh-approximated GELU, and the head is tied
to the embedding; nothing follows the head.
"""

from transformers.models.gemma.modeling_gemma import GemmaAttention, GemmaDecoderLayer, GemmaMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(Layer):
    """Gemma's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Gemma's attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(Mlp):
    """Gemma's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


ENVOYS = {GemmaDecoderLayer: Layer, GemmaAttention: Attention, GemmaMLP: Mlp}

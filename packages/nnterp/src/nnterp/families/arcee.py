"""Arcee (`ArceeForCausalLM`): Llama's block with a plain (ungated) MLP.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The MLP is `down_proj(act_fn(up_proj(x)))` with ReLU² by default and no `gate_proj`, so
`mlp_neurons` is `mlp_activation` itself.
"""

from transformers.models.arcee.modeling_arcee import ArceeAttention, ArceeDecoderLayer, ArceeMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(Layer):
    """Arcee's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Arcee's attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(Mlp):
    """Arcee's plain MLP, `down_proj(act_fn(up_proj(x)))` without a gate: `up_proj` is the only input projection, and `mlp_neurons` is `mlp_activation` itself."""


ENVOYS = {ArceeDecoderLayer: Layer, ArceeAttention: Attention, ArceeMLP: Mlp}

"""Helium (`HeliumForCausalLM`): Llama's block with an interleaved rotary embedding.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The rotary embedding rotates adjacent pairs of channels rather than the two halves of a head; the
queries and keys are read after it, as the interface receives them.
"""

from transformers.models.helium.modeling_helium import HeliumAttention, HeliumDecoderLayer, HeliumMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(Layer):
    """Helium's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Helium's attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(Mlp):
    """Helium's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`, so the base holds."""


ENVOYS = {HeliumDecoderLayer: Layer, HeliumAttention: Attention, HeliumMLP: Mlp}

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


ENVOYS = {HeliumDecoderLayer: Layer, HeliumAttention: Attention, HeliumMLP: Mlp}

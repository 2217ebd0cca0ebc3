"""Emu3's text model (`Emu3ForCausalLM`): Llama's block.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`, the
block's `dropout` on each sublayer's output before the add, the identity in eval mode.
The attention and the gated MLP are Llama's, so its classes subclass Llama's unchanged.

The Emu3 wrapper (`emu3`) is served by `nnterp.families.emu3`.
"""

from transformers.models.emu3.modeling_emu3 import Emu3Attention, Emu3DecoderLayer, Emu3MLP

from nnterp.families import llama

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {
    Emu3DecoderLayer: llama.Layer,
    Emu3Attention: llama.Attention,
    Emu3MLP: llama.Mlp,
}

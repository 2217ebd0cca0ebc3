"""Llama (`LlamaForCausalLM`): the family the standard vocabulary is taken from.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Its module changes nothing but lifting the containers out of the inner `model`. The
vision-language wrappers over a Llama text model (Idefics 3, SmolVLM, VipLlava, ...)
are modules of their own that compose this one's `RENAME` and `ENVOYS`.
"""

from transformers.models.llama.modeling_llama import LlamaAttention, LlamaDecoderLayer, LlamaMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {
    LlamaDecoderLayer: Layer,
    LlamaAttention: Attention,
    LlamaMLP: Mlp,
}

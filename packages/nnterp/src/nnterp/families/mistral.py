"""Mistral (`MistralForCausalLM`): Llama's block with grouped-query attention over a sliding window.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention passes `config.sliding_window` to the shared interface, which folds the window into
the mask: `attention_scores` are masked outside it and `attention_probabilities` are zero there.

The vision-language wrappers over a Mistral text model (Idefics 2, Mistral 3, Llava,
LLaVA-NeXT) are modules of their own that compose this one's `RENAME` and `ENVOYS`.
"""

from transformers.models.mistral.modeling_mistral import MistralAttention, MistralDecoderLayer, MistralMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {
    MistralDecoderLayer: Layer,
    MistralAttention: Attention,
    MistralMLP: Mlp,
}

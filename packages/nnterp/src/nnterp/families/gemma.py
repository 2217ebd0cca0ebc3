"""Gemma (`GemmaForCausalLM`): Llama's block under Llama's names, with a scaled embedding.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The embedding module multiplies its output by `sqrt(hidden_size)`, so
`embed_tokens.output` is the scaled stream block 0 reads. The norms scale by
`1 + weight`, the MLP is gated with a tanh-approximated GELU, and the head is tied
to the embedding; nothing follows the head.

The vision-language wrapper over a Gemma text model, PaliGemma, is a module of its own
that composes this one's `RENAME` and `ENVOYS`.
"""

from transformers.models.gemma.modeling_gemma import GemmaAttention, GemmaDecoderLayer, GemmaMLP

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {
    GemmaDecoderLayer: Layer,
    GemmaAttention: Attention,
    GemmaMLP: Mlp,
}

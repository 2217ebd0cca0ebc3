"""Granite (`GraniteForCausalLM`): Llama's names around a block that scales each sublayer before adding it.

`h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * mlp(post_attention_layernorm(h))`.

The block multiplies each sublayer's output by `residual_multiplier`, so
`attention_output` and `mlp_output` are the scaled products the block adds, and a
write is divided by the multiplier before the block scales it again; the values
inside the sublayers, the gated MLP's neurons among them, are unscaled. The attention
calls the shared eager interface and scales its scores by `attention_multiplier`
instead of `1 / sqrt(head_dim)`. The model multiplies the embedding output by
`embedding_multiplier` before the first block, so `token_embeddings` is the unscaled
lookup and `layers[0].layer_input` the scaled one, and it divides the head's output
by `logits_scaling`, which `project_on_vocab` does too.
"""

from transformers.models.granite.modeling_granite import GraniteAttention, GraniteDecoderLayer, GraniteMLP

from nnterp.components import Layer, LogitLens, ScaledAttention, ScaledMlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


project_on_vocab = LogitLens(divide="logits_scaling")


ENVOYS = {GraniteDecoderLayer: Layer, GraniteAttention: ScaledAttention, GraniteMLP: ScaledMlp}

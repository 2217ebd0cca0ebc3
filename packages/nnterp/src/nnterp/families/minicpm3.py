"""MiniCPM3 (`MiniCPM3ForCausalLM`): latent attention in a block that scales each contribution.

`h = x + residual_scale * self_attn(input_layernorm(x));
out = h + residual_scale * mlp(post_attention_layernorm(h))`.

The block multiplies each sublayer's output by `residual_scale`
(`scale_depth / sqrt(num_hidden_layers)`), so the contributions are those products,
read as the multiplier times the module output, bit for bit what the block adds; a
write is divided by the multiplier before the block scales it again. The attention is
multi-head latent attention (DeepSeek-V2's, with the plain rotary convention): the
queries, keys and values are read where they enter the shared attention interface,
with as many key/value heads as query heads, `qk_head_dim` wide queries and keys and
`v_head_dim` wide values. The embedding module multiplies by `scale_emb`, and the model
divides the final norm's output by `logits_scaling` (`hidden_size / dim_model_base`)
before the head, which `project_on_vocab` does too.
"""

from transformers.models.minicpm3.modeling_minicpm3 import MiniCPM3Attention, MiniCPM3DecoderLayer, MiniCPM3MLP

from nnterp.components import (
    LatentAttention,
    Layer,
    LogitLens,
    ScaledMlp,
    latent_head_dim,
    latent_qk_head_dim,
    scaled_output,
)

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Attention(LatentAttention):
    """MiniCPM3's latent attention on the shared eager interface, its output scaled by the block."""

    attention_output = scaled_output("What the attention adds to the residual stream, after the block's multiplier")


#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys'.
head_dim = latent_head_dim
qk_head_dim = latent_qk_head_dim


project_on_vocab = LogitLens(divide_before="logits_scaling")


ENVOYS = {MiniCPM3DecoderLayer: Layer, MiniCPM3Attention: Attention, MiniCPM3MLP: ScaledMlp}

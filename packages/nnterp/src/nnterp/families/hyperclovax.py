"""HyperCLOVA X (`HyperCLOVAXForCausalLM`): a sandwich block that scales each contribution.

`h = x + residual_multiplier * post_norm1(self_attn(input_layernorm(x)));
out = h + residual_multiplier * post_norm2(mlp(post_attention_layernorm(h)))`.

Llama's names keep their roles (`post_attention_layernorm` feeds the MLP). Each
sublayer's output passes its own post-norm (`post_norm1`, `post_norm2`, identities
when the config sets `use_post_norm=False`) and is multiplied by `residual_multiplier`
in the block, so the contributions are those products, read as the multiplier times
the post-norm's output, bit for bit what the block adds; a write is divided by the
multiplier before the block scales it again. The attention scales its scores by
`attention_multiplier`. The model multiplies the embedding output by
`embedding_multiplier` before the first block (`token_embeddings` is the unscaled
lookup, `layers[0].layer_input` the scaled one) and multiplies the head's output by
`logits_scaling`, which `project_on_vocab` does too.
"""

from transformers.models.hyperclovax.modeling_hyperclovax import (
    HyperCLOVAXAttention,
    HyperCLOVAXDecoderLayer,
    HyperCLOVAXMLP,
)

from nnterp.components import Attention, Layer, LogitLens, Mlp, scaled_output

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Attention(Attention):
    """HyperCLOVA X's attention; the shared eager interface, the contribution post-normed and scaled."""

    attention_output = scaled_output(
        "What the attention adds to the residual stream: post_norm1's output times the block's multiplier",
        "../post_norm1.output",
    )


class Mlp(Mlp):
    """HyperCLOVA X's gated MLP; the contribution post-normed and scaled."""

    mlp_output = scaled_output(
        "What the MLP adds to the residual stream: post_norm2's output times the block's multiplier",
        "../post_norm2.output",
    )


project_on_vocab = LogitLens(multiply="logits_scaling")


ENVOYS = {HyperCLOVAXDecoderLayer: Layer, HyperCLOVAXAttention: Attention, HyperCLOVAXMLP: Mlp}

"""Granite-MoE (`GraniteMoeForCausalLM`): Llama's names around a block that scales each sublayer before adding it.

`h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * mlp(post_attention_layernorm(h))`.

The block multiplies each sublayer's output by `residual_multiplier`, so
`attention_output` and `mlp_output` are the scaled products the block adds, and a
write is divided by the multiplier before the block scales it again. The mixture
(`block_sparse_moe`, aliased `mlp`) scores its router's logits with a softmax over
the top `top_k` and has no shared expert; its values are unscaled, so
`mlp_output == routed_output * residual_multiplier`. The model multiplies the
embedding output by `embedding_multiplier` before the first block and divides the
head's output by `logits_scaling`, which `project_on_vocab` does too.
"""

from transformers.models.granitemoe.modeling_granitemoe import (
    GraniteMoeAttention,
    GraniteMoeDecoderLayer,
    GraniteMoeMoE,
)

from nnterp.components import Layer, ScaledAttention, ScaledMoe, divide_by_logits_scaling

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "block_sparse_moe": "mlp",
}


#: The logit lens: the final norm, `lm_head`, then the division by `logits_scaling` the model applies.
project_on_vocab = divide_by_logits_scaling


ENVOYS = {GraniteMoeDecoderLayer: Layer, GraniteMoeAttention: ScaledAttention, GraniteMoeMoE: ScaledMoe}

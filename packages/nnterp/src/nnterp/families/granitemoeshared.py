"""Granite-MoE-Shared (`GraniteMoeSharedForCausalLM`): Granite-MoE's scaled block with a shared MLP beside the mixture.

`h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * (mlp(post_attention_layernorm(h)) + shared_mlp(post_attention_layernorm(h)))`.

The block multiplies each sublayer's output by `residual_multiplier`, so
`attention_output` is the scaled product the block adds, and a write is divided by
the multiplier before the block scales it again. The mixture (`block_sparse_moe`,
aliased `mlp`) scores its router's (`router`) logits with a softmax over the top
`top_k` and runs grouped experts; the shared expert is the block's own dense MLP (`shared_mlp`) on the same normed input,
and the block adds the two before scaling. `mlp_output` is that scaled sum, read in
the block's forward, `shared_expert_output` is the shared MLP's output and
`routed_output` the experts', both unscaled, so
`mlp_output == (routed_output + shared_expert_output) * residual_multiplier`. The
model multiplies the embedding output by `embedding_multiplier` before the first
block and divides the head's output by `logits_scaling`, which `project_on_vocab`
does too.
"""

from transformers.models.granitemoeshared.modeling_granitemoeshared import (
    GraniteMoeSharedAttention,
    GraniteMoeSharedDecoderLayer,
    GraniteMoeSharedMoE,
)

from nnterp.components import Layer, ScaledAttention, ScaledSiblingMoe, divide_by_logits_scaling

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "block_sparse_moe": "mlp",
}


class Layer(Layer):
    """Granite-MoE-Shared's block; its forward is instrumented, because `mlp_output` is read at its sum of the mixture and the shared MLP."""

    sourced = True


#: The logit lens: the final norm, `lm_head`, then the division by `logits_scaling` the model applies.
project_on_vocab = divide_by_logits_scaling


ENVOYS = {
    GraniteMoeSharedDecoderLayer: Layer,
    GraniteMoeSharedAttention: ScaledAttention,
    GraniteMoeSharedMoE: ScaledSiblingMoe,
}

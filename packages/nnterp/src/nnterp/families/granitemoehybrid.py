"""Granite-4 (`GraniteMoeHybridForCausalLM`): Granite's scaled block on Mamba-2 and attention blocks, with mixtures.

`config.layer_types` gives each block either `linear_attn`, a Mamba-2 mixer
(`StateSpace`, native `mamba`), or `self_attn`. As on Granite-MoE-Shared the block
scales every sublayer's output by `residual_multiplier` before adding it, and runs
a mixture (`block_sparse_moe`, aliased `mlp`) beside its own dense `shared_mlp`:
`h = x + residual_multiplier * mixer(input_layernorm(x));
out = h + residual_multiplier * (mlp(post_attention_layernorm(h)) + shared_mlp(post_attention_layernorm(h)))`,
with `mixer` the block's `self_attn` or `linear_attn`. `attention_output` is the
scaled product on both kinds, `mlp_output` the scaled sum; the mixer's own values
are unscaled. The model multiplies the embedding output by `embedding_multiplier`
and divides the head's output by `logits_scaling`, which `project_on_vocab` does too.
"""

from transformers.models.granitemoehybrid.modeling_granitemoehybrid import (
    GraniteMoeHybridAttention,
    GraniteMoeHybridDecoderLayer,
    GraniteMoeHybridMambaLayer,
    GraniteMoeHybridMoE,
)

from nnterp.components import (
    HybridLayer,
    ScaledAttention,
    ScaledSiblingMoe,
    StateSpace,
    divide_by_logits_scaling,
    scaled_output,
)

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "block_sparse_moe": "mlp",
    "mamba": "linear_attn",
}


class Layer(HybridLayer):
    """Granite-4's block; its forward is instrumented, because `mlp_output` is read at its sum of the mixture and the shared MLP."""

    sourced = True


class StateSpace(StateSpace):
    """Granite-4's Mamba-2 mixer; Mamba-2's kernels, its output scaled by the block."""

    attention_output = scaled_output("What the mixer adds to the residual stream, after the block's multiplier")


#: The logit lens: the final norm, `lm_head`, then the division by `logits_scaling` the model applies.
project_on_vocab = divide_by_logits_scaling


ENVOYS = {
    GraniteMoeHybridDecoderLayer: Layer,
    GraniteMoeHybridAttention: ScaledAttention,
    GraniteMoeHybridMambaLayer: StateSpace,
    GraniteMoeHybridMoE: ScaledSiblingMoe,
}

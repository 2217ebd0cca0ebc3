"""Ling hybrid (`BailingHybridForCausalLM`): Kimi delta attention and gated latent attention, with mixtures.

Kimi-Linear's block, with two changes. `config.layer_types` gives each block either
a Kimi delta attention mixer (`linear_attention`, a `KimiDeltaAttention`) or a
latent attention (`full_attention`), both under the native name `self_attn`; the
block is Kimi-Linear's envoy, which names the mixer `linear_attn` on a delta block
(`block_aliases`), where `self_attn` is then refused. Llama's order holds:
`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn`.

The delta mixer's decay per head and key channel is bounded: with `kda_safe_gate`
it is `kda_lower_bound * sigmoid(exp(A_log) * (f_proj(x) + dt_bias))`, otherwise
`-exp(A_log) * softplus(f_proj(x) + dt_bias)` (the `ChannelGates` `decays`); its
write strength is a sigmoid per head (`betas`), and it calls transformers' two KDA
kernels, as Kimi-Linear's does (chunked over a prompt, recurrent for a decode step),
which l2-normalize the queries and keys; its head outputs pass a gated RMS norm (gate
`g_proj(x)`) and `o_proj`. The latent attention rotates the last `qk_rope_head_dim`
channels of each query and of the shared key (interleaved), calls the shared
attention interface, and scales each head's output by a sigmoid gate (`g_proj`, one
per head) before `o_proj`, so `attention_premix` is the gated head outputs. A block is dense or a
mixture by its `mlp_layer_types` entry; the dense blocks carry a gated MLP, the same
class the mixture's shared experts are; the router (`gate`) scores with a sigmoid,
adds a correction bias for the choice only, keeps the best `topk_group` of `n_group`
expert groups, then the top `num_experts_per_tok` experts, renormalized when
`norm_topk_prob` is set and multiplied by `routed_scaling_factor`; the grouped
experts run through transformers' experts implementations, and the shared experts
run on the mixture's input and are added to the routed sum.
"""

from transformers.models.bailing_hybrid.modeling_bailing_hybrid import (
    BailingHybridAttention,
    BailingHybridDecoderLayer,
    BailingHybridDeltaAttention,
    BailingHybridMLP,
    BailingHybridMoE,
)

from nnterp.components import LatentAttention, Mlp, Moe
from nnterp.components.kimi_delta import KimiDeltaAttention
from nnterp.families.kimi_linear import RENAME, Layer, head_dim, qk_head_dim

__all__ = ["ENVOYS", "RENAME", "KimiDeltaAttention", "Layer", "Mlp", "Moe", "head_dim", "qk_head_dim"]


class Moe(Moe):
    """The Ling hybrid's mixture: a grouped sigmoid router with a correction bias (`gate`), grouped experts,
    shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


ENVOYS = {
    BailingHybridDecoderLayer: Layer,
    BailingHybridAttention: LatentAttention,
    BailingHybridDeltaAttention: KimiDeltaAttention,
    BailingHybridMLP: Mlp,
    BailingHybridMoE: Moe,
}

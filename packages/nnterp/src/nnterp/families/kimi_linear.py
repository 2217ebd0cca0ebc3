"""Kimi-Linear (`KimiLinearForCausalLM`): a hybrid of Kimi delta attention and latent attention, with mixtures.

`config.layer_types` gives each block either a Kimi delta attention mixer
(`linear_attention`, a `KimiDeltaAttention`) or a latent attention with no rotary
part (`full_attention`), both under the native name `self_attn`. The block's envoy
names the mixer by kind (`block_aliases`): `linear_attn` on a delta block, where
`self_attn` is then refused as on any block without a softmax attention. Llama's
order holds: `h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn`.

The delta mixer projects the stream to queries, keys and values, runs a short
causal convolution (SiLU) over them, and hands them to the delta rule with a decay
per head and key channel (`g = -exp(A_log) * softplus(f_b_proj(f_a_proj(x)) + dt_bias)`,
the `ChannelGates` `decays`) and a sigmoid write strength per head (`betas`); the
kernel l2-normalizes the queries and keys. Its head outputs pass a gated RMS norm
(the gate `g_b_proj(g_a_proj(x))`) and `o_proj`. The latent attention's queries
and keys are `qk_nope_head_dim + qk_rope_head_dim` wide, with the last part read
off one shared key (see `nnterp.components.latent`), and it calls the shared
attention interface. A block is dense or a mixture by its `mlp_layer_types` entry;
the router (`gate`) scores its logits with a sigmoid, adds a correction bias for the
choice only, keeps the best `topk_group` of `n_group` expert groups, then the top
`num_experts_per_tok` experts, renormalized when `norm_topk_prob` is set and
multiplied by `routed_scaling_factor`. The experts run their own loop, one expert at
a time; the shared experts run on the mixture's input and the module returns the sum.
"""

from transformers.models.kimi_linear.modeling_kimi_linear import (
    KimiLinearAttention,
    KimiLinearDecoderLayer,
    KimiLinearDeltaAttention,
    KimiLinearMLP,
    KimiLinearMoE,
)

from nnterp.components import (
    OWN_EXPERT_LOOP,
    HybridLayer,
    LatentAttention,
    Mlp,
    Moe,
    latent_head_dim,
    latent_qk_head_dim,
    unavailable,
)
from nnterp.components.kimi_delta import KimiDeltaAttention

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(HybridLayer):
    """Kimi-Linear's block: one mixer under the native `self_attn`, named `linear_attn` on a delta block."""

    def block_aliases(self) -> dict[str, str]:
        if self._module.block_type == "linear_attention":
            return {"linear_attn": "self_attn"}
        return {}


class Moe(Moe):
    """Kimi-Linear's mixture: a grouped sigmoid router with a correction bias (`gate`), experts that loop over
    themselves, shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"

    expert_outputs = unavailable(OWN_EXPERT_LOOP)


#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys'
#: (`config.head_dim` is the rotary width).
head_dim = latent_head_dim
qk_head_dim = latent_qk_head_dim

ENVOYS = {
    KimiLinearDecoderLayer: Layer,
    KimiLinearAttention: LatentAttention,
    KimiLinearDeltaAttention: KimiDeltaAttention,
    KimiLinearMLP: Mlp,
    KimiLinearMoE: Moe,
}

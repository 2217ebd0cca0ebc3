"""LFM2-MoE (`Lfm2MoeForCausalLM`): LFM2's hybrid of short-convolution and attention blocks, with mixtures.

`config.layer_types` gives each block either `conv`, a gated short convolution
(native `conv`, aliased `linear_attn`, `ShortConvolution`), or `full_attention`
(`self_attn`, its `out_proj` aliased `o_proj`). LFM2's order and names hold:
`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with the norms native `operator_norm` and `ffn_norm`, the MLP native
`feed_forward` and the final norm native `embedding_norm`. The first
`num_dense_layers` blocks carry LFM2's dense MLP; the others a mixture with a
sigmoid router (`gate`) that picks its top `num_experts_per_tok` by the scores
plus a per-expert bias, renormalizes the unbiased scores when `norm_topk_prob` is
set and scales them by `routed_scaling_factor`, and no shared expert.
"""

from transformers.models.lfm2_moe.modeling_lfm2_moe import (
    Lfm2MoeAttention,
    Lfm2MoeDecoderLayer,
    Lfm2MoeMLP,
    Lfm2MoeShortConv,
    Lfm2MoeSparseMoeBlock,
)

from nnterp.components import Moe
from nnterp.families import lfm2

RENAME = {
    **{native: alias for native, alias in lfm2.RENAME.items() if isinstance(native, str)},
    Lfm2MoeShortConv: "linear_attn",
}


class Layer(lfm2.Layer):
    """LFM2-MoE's block: LFM2's, so that class holds."""


class Attention(lfm2.Attention):
    """LFM2-MoE's attention: LFM2's, so that class holds."""


class ShortConvolution(lfm2.ShortConvolution):
    """LFM2-MoE's short convolution: LFM2's, so that class holds."""


class Mlp(lfm2.Mlp):
    """LFM2-MoE's dense MLP on the first blocks: LFM2's, its SiLU a function call."""


class Moe(Moe):
    """LFM2-MoE's mixture: a sigmoid router with a selection bias (`gate`), grouped experts, no shared expert."""

    SCORING = "sigmoid"
    ROUTER = "gate"


ENVOYS = {
    Lfm2MoeDecoderLayer: Layer,
    Lfm2MoeAttention: Attention,
    Lfm2MoeShortConv: ShortConvolution,
    Lfm2MoeMLP: Mlp,
    Lfm2MoeSparseMoeBlock: Moe,
}

"""LFM2-MoE (`Lfm2MoeForCausalLM`): LFM2's hybrid of short-convolution and attention blocks, with mixtures.

`config.layer_types` gives each block either `conv`, a gated short convolution
(native `conv`, aliased `linear_attn`, `lfm2.ShortConvolution`), or `full_attention`
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

from nnterp.components import HybridLayer, Moe
from nnterp.families import lfm2

RENAME = {
    **{native: alias for native, alias in lfm2.RENAME.items() if isinstance(native, str)},
    Lfm2MoeShortConv: "linear_attn",
}


class Moe(Moe):
    """LFM2-MoE's mixture: a sigmoid router with a selection bias (`gate`), grouped experts, no shared expert."""

    SCORING = "sigmoid"
    ROUTER = "gate"


ENVOYS = {
    Lfm2MoeDecoderLayer: HybridLayer,
    Lfm2MoeAttention: lfm2.Attention,
    Lfm2MoeShortConv: lfm2.ShortConvolution,
    Lfm2MoeMLP: lfm2.Mlp,
    Lfm2MoeSparseMoeBlock: Moe,
}

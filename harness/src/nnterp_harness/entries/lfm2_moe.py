from ..entry import Entry
from .lfm2 import LFM2_SHAPE

#: LFM2-MoE in miniature: LFM2's sizes over three blocks, a short-convolution block with the dense MLP, then a
#: short-convolution block and an attention block with mixtures; the routed weights are scaled by a factor other
#: than one.
LFM2_MOE_SHAPE = {
    **{key: value for key, value in LFM2_SHAPE.items() if key not in ("full_attn_idxs", "block_auto_adjust_ff_dim")},
    "moe_intermediate_size": 32,
    "num_hidden_layers": 3,
    "layer_types": ["conv", "conv", "full_attention"],
    "num_dense_layers": 1,
    "num_experts": 4,
    "num_experts_per_tok": 2,
    "use_expert_bias": True,
    "routed_scaling_factor": 1.5,
    "norm_topk_prob": True,
}

ENTRIES = (Entry("lfm2_moe", "lfm2_moe", LFM2_MOE_SHAPE),)

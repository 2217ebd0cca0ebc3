from ..entry import GROUPED_TOP_K_SHAPE, INIT_STD, LATENT_ATTENTION_SHAPE, Entry

#: Kimi-Linear in miniature: a Kimi delta attention block with the dense MLP, then a latent attention block with
#: a grouped mixture (8 experts in 4 groups) and a shared expert.
KIMI_LINEAR_SHAPE = {
    **LATENT_ATTENTION_SHAPE,
    **GROUPED_TOP_K_SHAPE,
    "hidden_size": 64,
    "intermediate_size": 64,
    "q_lora_rank": None,
    "layer_types": ["linear_attention", "full_attention"],
    "linear_num_heads": 4,
    "linear_head_dim": 16,
    "linear_conv_kernel_dim": 4,
    "moe_intermediate_size": 16,
    "num_experts": 8,
    "n_shared_experts": 1,
    "initializer_range": INIT_STD,
}

ENTRIES = (Entry("kimi_linear", "kimi_linear", KIMI_LINEAR_SHAPE),)

from ..entry import LATENT_ATTENTION_SHAPE, Entry

#: The DeepSeek-V3 line's mixture, shrunk: a dense first block, then 8 experts in 4 groups, 2 groups and 2 experts per token.
GROUPED_SIGMOID_MOE = {
    "hidden_size": 64,
    "intermediate_size": 64,
    "moe_intermediate_size": 16,
    "n_routed_experts": 8,
    "n_shared_experts": 1,
    "num_experts_per_tok": 2,
    "n_group": 4,
    "topk_group": 2,
    "norm_topk_prob": True,
    "routed_scaling_factor": 2.5,
    "first_k_dense_replace": 1,
    "num_hidden_layers": 2,
}

ENTRIES = (
    Entry(
        "deepseek_v3",
        "deepseek_v3",
        {
            **GROUPED_SIGMOID_MOE,
            **LATENT_ATTENTION_SHAPE,
            "head_dim": 8,
        },
    ),
)

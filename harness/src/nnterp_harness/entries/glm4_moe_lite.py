from ..entry import GROUPED_TOP_K_SHAPE, LATENT_ATTENTION_SHAPE, Entry

# A dense first block, then a mixture of 8 experts in 4 groups, 2 groups and 2 experts per token, with a shared
# expert; latent attention with a query latent and interleaved rotary weights.
ENTRIES = (
    Entry(
        "glm4_moe_lite",
        "glm4_moe_lite",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "moe_intermediate_size": 16,
            "n_routed_experts": 8,
            "n_shared_experts": 1,
            **GROUPED_TOP_K_SHAPE,
            "routed_scaling_factor": 1.8,
            **LATENT_ATTENTION_SHAPE,
        },
    ),
)

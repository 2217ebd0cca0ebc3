from ..entry import INIT_STD, MAX_POSITIONS, Entry

# A dense first block, then a mixture of 4 experts, 2 per token, with a shared expert.
ENTRIES = (
    Entry(
        "hy_v3",
        "hy_v3",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "moe_intermediate_size": 32,
            "num_experts": 4,
            "num_shared_experts": 1,
            "num_experts_per_tok": 2,
            "router_scaling_factor": 2.5,
            "num_hidden_layers": 2,
            "mlp_layer_types": ["dense", "sparse"],
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

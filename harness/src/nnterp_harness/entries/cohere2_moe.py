from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "cohere2_moe",
        "cohere2_moe",
        {
            "hidden_size": 64,
            "intermediate_size": 32,
            "prefix_dense_intermediate_size": 64,
            "first_k_dense_replace": 1,
            "num_hidden_layers": 3,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "num_experts": 4,
            "num_experts_per_tok": 2,
            "num_shared_experts": 1,
            "shared_expert_combination_strategy": "sum",
            "expert_selection_fn": "softmax",
            "max_position_embeddings": MAX_POSITIONS,
            "layer_types": ["sliding_attention", "sliding_attention", "full_attention"],
            "sliding_window": 128,
            "logit_scale": 0.5,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "afmoe",
        "afmoe",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "moe_intermediate_size": 32,
            "num_hidden_layers": 3,
            "num_dense_layers": 1,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "num_experts": 4,
            "num_experts_per_tok": 2,
            "num_shared_experts": 1,
            "route_scale": 2.5,
            "layer_types": ["sliding_attention", "sliding_attention", "full_attention"],
            "sliding_window": 128,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

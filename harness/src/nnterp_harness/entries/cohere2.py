from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "cohere2",
        "cohere2",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "num_hidden_layers": 3,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "max_position_embeddings": MAX_POSITIONS,
            "layer_types": ["sliding_attention", "full_attention", "sliding_attention"],
            "sliding_window": 128,
            "logit_scale": 0.5,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

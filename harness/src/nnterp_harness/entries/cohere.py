from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "cohere",
        "cohere",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "num_hidden_layers": 3,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "max_position_embeddings": MAX_POSITIONS,
            "use_qk_norm": True,
            "logit_scale": 0.5,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

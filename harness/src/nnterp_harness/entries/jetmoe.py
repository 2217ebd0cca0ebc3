from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "jetmoe",
        "jetmoe",
        {
            "hidden_size": 64,
            "intermediate_size": 32,
            "num_hidden_layers": 2,
            # Each query expert projects `num_key_value_heads` heads of `kv_channels`; a token runs `top_k` of them.
            "num_key_value_heads": 2,
            "kv_channels": 16,
            "num_local_experts": 4,
            "num_experts_per_tok": 2,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

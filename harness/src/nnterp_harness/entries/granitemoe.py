from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "granitemoe",
        "granitemoe",
        {
            "hidden_size": 64,
            "intermediate_size": 32,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "num_local_experts": 4,
            "num_experts_per_tok": 2,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "embedding_multiplier": 3.0,
            "logits_scaling": 2.0,
            "residual_multiplier": 0.5,
            "attention_multiplier": 0.2,
            "tie_word_embeddings": True,
        },
    ),
)

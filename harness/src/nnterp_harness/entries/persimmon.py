from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "persimmon",
        "persimmon",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "num_hidden_layers": 3,
            "num_attention_heads": 4,
            "max_position_embeddings": MAX_POSITIONS,
            "qk_layernorm": True,
            "tie_word_embeddings": True,
            "hidden_dropout": 0.0,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

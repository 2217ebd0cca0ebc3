from ..entry import GPT2_POSITIONS, INIT_STD, Entry

ENTRIES = (
    Entry(
        "biogpt",
        "biogpt",
        {
            "hidden_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "intermediate_size": 96,
            "max_position_embeddings": GPT2_POSITIONS,
            "hidden_dropout_prob": 0.0,
            "attention_probs_dropout_prob": 0.0,
            "activation_dropout": 0.0,
            "layerdrop": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

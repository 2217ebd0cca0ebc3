from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "gpt_neox",
        "gpt_neox",
        {
            "hidden_size": 64,
            "intermediate_size": 96,
            "num_hidden_layers": 3,
            "num_attention_heads": 4,
            "max_position_embeddings": MAX_POSITIONS,
            "use_parallel_residual": True,
            "attention_dropout": 0.0,
            "hidden_dropout": 0.0,
            "classifier_dropout": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

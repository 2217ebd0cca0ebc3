from ..entry import GPT2_POSITIONS, INIT_STD, Entry

ENTRIES = (
    Entry(
        "gpt_neo",
        "gpt_neo",
        {
            "hidden_size": 64,
            "num_layers": 2,
            "num_heads": 4,
            "intermediate_size": 96,
            # One global and one local block; a window shorter than the prompts masks keys.
            "attention_types": [[["global", "local"], 1]],
            "window_size": 3,
            "max_position_embeddings": GPT2_POSITIONS,
            "resid_dropout": 0.0,
            "embed_dropout": 0.0,
            "attention_dropout": 0.0,
            "classifier_dropout": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "xglm",
        "xglm",
        {
            "d_model": 64,
            "num_layers": 2,
            "attention_heads": 4,
            "ffn_dim": 96,
            "max_position_embeddings": MAX_POSITIONS,
            "dropout": 0.0,
            "attention_dropout": 0.0,
            "activation_dropout": 0.0,
            "layerdrop": 0.0,
            "init_std": INIT_STD,
        },
    ),
)

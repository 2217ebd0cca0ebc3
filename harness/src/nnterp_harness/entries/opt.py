from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "opt",
        "opt",
        {
            "hidden_size": 64,
            "num_hidden_layers": 3,
            "num_attention_heads": 4,
            "ffn_dim": 128,
            "word_embed_proj_dim": 64,
            "do_layer_norm_before": True,
            "max_position_embeddings": MAX_POSITIONS,
            "dropout": 0.0,
            "attention_dropout": 0.0,
            "layerdrop": 0.0,
            "init_std": INIT_STD,
        },
    ),
)

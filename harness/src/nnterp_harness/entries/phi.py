from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "phi",
        "phi",
        {
            "hidden_size": 64,
            "intermediate_size": 96,
            "num_hidden_layers": 3,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "max_position_embeddings": MAX_POSITIONS,
            "qk_layernorm": True,
            "tie_word_embeddings": True,
            "resid_pdrop": 0.0,
            "embd_pdrop": 0.0,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

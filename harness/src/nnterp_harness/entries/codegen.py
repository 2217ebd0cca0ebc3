from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "codegen",
        "codegen",
        {
            "n_embd": 64,
            "n_inner": 64,
            "n_layer": 3,
            "n_head": 4,
            "rotary_dim": 8,
            "n_positions": MAX_POSITIONS,
            "tie_word_embeddings": True,
            "resid_pdrop": 0.0,
            "embd_pdrop": 0.0,
            "attn_pdrop": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

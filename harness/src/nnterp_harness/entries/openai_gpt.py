from ..entry import GPT2_POSITIONS, INIT_STD, Entry

ENTRIES = (
    Entry(
        "openai_gpt",
        "openai-gpt",
        {
            "n_embd": 64,
            "n_layer": 2,
            "n_head": 4,
            "n_positions": GPT2_POSITIONS,
            "resid_pdrop": 0.0,
            "embd_pdrop": 0.0,
            "attn_pdrop": 0.0,
            "summary_first_dropout": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

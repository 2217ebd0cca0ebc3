from ..entry import GPT2_POSITIONS, INIT_STD, Entry

ENTRIES = (
    Entry(
        "gpt_bigcode",
        "gpt_bigcode",
        {
            "n_embd": 64,
            "n_layer": 2,
            "n_head": 4,
            "n_inner": 96,
            "n_positions": GPT2_POSITIONS,
            "multi_query": True,
            "resid_pdrop": 0.0,
            "embd_pdrop": 0.0,
            "attn_pdrop": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

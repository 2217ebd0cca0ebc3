from ..entry import INIT_STD, Entry

ENTRIES = (
    Entry(
        "ctrl",
        "ctrl",
        {
            "n_embd": 64,
            "n_layer": 2,
            "n_head": 4,
            "dff": 96,
            "n_positions": 128,
            "resid_pdrop": 0.0,
            "embd_pdrop": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

from ..entry import INIT_STD, Entry

ENTRIES = (
    Entry(
        "bloom",
        "bloom",
        {
            "hidden_size": 64,
            "n_layer": 3,
            "n_head": 4,
            "hidden_dropout": 0.0,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

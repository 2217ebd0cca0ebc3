from ..entry import TEXT_DEFAULTS, Entry

ENTRIES = (
    Entry(
        "persimmon",
        "persimmon",
        {
            **TEXT_DEFAULTS,
            "intermediate_size": 64,
            "num_hidden_layers": 3,
            "qk_layernorm": True,
            "hidden_dropout": 0.0,
        },
    ),
)

from ..entry import INIT_STD, Entry

ENTRIES = (
    Entry(
        "xlnet",
        "xlnet",
        {
            "d_model": 64,
            "n_layer": 2,
            "n_head": 4,
            "d_inner": 128,
            "attn_type": "uni",
            "ff_activation": "gelu",
            "dropout": 0.0,
            "summary_last_dropout": 0.0,
            # Generation then passes the whole sequence at every step rather than two ids after a memory.
            "use_mems_eval": False,
            "initializer_range": INIT_STD,
        },
    ),
)

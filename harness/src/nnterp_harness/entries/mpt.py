from ..entry import INIT_STD, Entry

ENTRIES = (
    Entry(
        "mpt",
        "mpt",
        {
            "d_model": 64,
            "n_layers": 2,
            "n_heads": 4,
            "expansion_ratio": 2,
            "max_seq_len": 128,
            "resid_pdrop": 0.0,
            "emb_pdrop": 0.0,
            "use_cache": True,
            # A scale other than the default 1/sqrt(head_dim) and a clip that bites.
            "attn_config": {"attn_pdrop": 0, "softmax_scale": 0.2, "clip_qkv": 0.6, "alibi_bias_max": 4},
            "initializer_range": INIT_STD,
        },
    ),
)

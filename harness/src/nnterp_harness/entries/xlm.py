from ..entry import GPT2_POSITIONS, INIT_STD, Entry

ENTRIES = (
    Entry(
        "xlm",
        "xlm",
        {
            "emb_dim": 64,
            "n_layers": 2,
            "n_heads": 4,
            "causal": True,
            "gelu_activation": True,
            "n_langs": 1,
            "max_position_embeddings": GPT2_POSITIONS,
            # Generation appends the mask token; the padding id (shared with bos/eos) would mask it out as padding.
            "mask_token_id": 1,
            "mask_index": 1,
            "dropout": 0.0,
            "attention_dropout": 0.0,
            "summary_first_dropout": 0.0,
            "init_std": INIT_STD,
            "embed_init_std": INIT_STD,
        },
    ),
)

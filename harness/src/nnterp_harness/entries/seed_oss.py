from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (
    Entry(
        "seed_oss",
        "seed_oss",
        {
            **GROUPED_LLAMA_SHAPE,
            "head_dim": 16,
            "residual_dropout": 0.0,
            "attention_out_bias": True,
            "tie_word_embeddings": True,
        },
    ),
)

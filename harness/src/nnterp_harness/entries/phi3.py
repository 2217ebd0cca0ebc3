from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (
    Entry(
        "phi3",
        "phi3",
        {
            **GROUPED_LLAMA_SHAPE,
            "resid_pdrop": 0.0,
            "embd_pdrop": 0.0,
            "original_max_position_embeddings": 256,
            "tie_word_embeddings": True,
        },
    ),
)

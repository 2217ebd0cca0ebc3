from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (
    Entry(
        "starcoder2",
        "starcoder2",
        {**GROUPED_LLAMA_SHAPE, "residual_dropout": 0.0, "embedding_dropout": 0.0, "tie_word_embeddings": True},
    ),
)

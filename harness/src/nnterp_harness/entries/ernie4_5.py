from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (
    Entry(
        "ernie4_5", "ernie4_5", {**GROUPED_LLAMA_SHAPE, "head_dim": 16, "use_bias": True, "tie_word_embeddings": True}
    ),
)

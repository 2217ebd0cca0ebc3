from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (
    Entry(
        "helium", "helium", {**GROUPED_LLAMA_SHAPE, "head_dim": 16, "attention_bias": True, "tie_word_embeddings": True}
    ),
)

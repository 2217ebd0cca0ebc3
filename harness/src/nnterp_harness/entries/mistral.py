from ..entry import GROUPED_LLAMA_SHAPE, Entry

# A sliding window of 8 tokens: longer than a generated test prompt (the cache keeps only the window), shorter than a long prompt.
ENTRIES = (
    Entry(
        "mistral", "mistral", {**GROUPED_LLAMA_SHAPE, "head_dim": 16, "sliding_window": 8, "tie_word_embeddings": True}
    ),
)

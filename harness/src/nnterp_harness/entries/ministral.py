from ..entry import GROUPED_LLAMA_SHAPE, Entry

# `head_dim` is unset by default; one full-attention block among sliding ones whose window of 8 tokens is longer than a generated test prompt (the cache keeps only the window).
ENTRIES = (
    Entry(
        "ministral",
        "ministral",
        {
            **GROUPED_LLAMA_SHAPE,
            "head_dim": 16,
            "sliding_window": 8,
            "layer_types": ["sliding_attention", "full_attention", "sliding_attention"],
            "tie_word_embeddings": True,
        },
    ),
)

from ..entry import GROUPED_LLAMA_SHAPE, Entry

# One full-attention block and two sliding ones, with a window of 8 tokens, longer than a generated test prompt (the cache keeps only the window).
ENTRIES = (
    Entry(
        "cwm",
        "cwm",
        {
            **GROUPED_LLAMA_SHAPE,
            "head_dim": 16,
            "sliding_window": 8,
            "layer_types": ["full_attention", "sliding_attention", "sliding_attention"],
            "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0},
            "tie_word_embeddings": True,
        },
    ),
)

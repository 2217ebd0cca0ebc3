from ..entry import GROUPED_LLAMA_SHAPE, Entry
from .granite import GRANITE_SCALES

# One full-attention block and two sliding ones, with a window of 8 tokens, longer than a generated test prompt (the cache keeps only the window).
ENTRIES = (
    Entry(
        "granite_swa",
        "granite_swa",
        {
            **GROUPED_LLAMA_SHAPE,
            **GRANITE_SCALES,
            "head_dim": 16,
            "sliding_window": 8,
            "layer_types": ["full_attention", "sliding_attention", "sliding_attention"],
            "layer_rope_theta": [10000.0, 10000.0, 10000.0],
            "tie_word_embeddings": True,
        },
    ),
)

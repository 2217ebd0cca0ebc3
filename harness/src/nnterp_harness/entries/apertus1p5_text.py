from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (
    Entry(
        "apertus1p5_text",
        "apertus1p5_text",
        {
            **GROUPED_LLAMA_SHAPE,
            "head_dim": 16,
            "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0},
            "tie_word_embeddings": True,
        },
    ),
)

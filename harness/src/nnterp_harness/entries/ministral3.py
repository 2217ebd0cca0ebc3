from ..entry import GROUPED_LLAMA_SHAPE, Entry

# A short `original_max_position_embeddings`, so the Llama-4 query scale differs from one on the test prompt.
ENTRIES = (
    Entry(
        "ministral3",
        "ministral3",
        {
            **GROUPED_LLAMA_SHAPE,
            "head_dim": 16,
            "rope_parameters": {
                "rope_type": "yarn",
                "rope_theta": 10000.0,
                "factor": 2.0,
                "original_max_position_embeddings": 4,
                "llama_4_scaling_beta": 0.5,
            },
            "tie_word_embeddings": True,
        },
    ),
)

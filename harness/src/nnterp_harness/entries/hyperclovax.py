from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (
    Entry(
        "hyperclovax",
        "hyperclovax",
        {
            **GROUPED_LLAMA_SHAPE,
            "num_hidden_layers": 2,
            "tie_word_embeddings": True,
            "embedding_multiplier": 1.5,
            "logits_scaling": 0.75,
            "residual_multiplier": 0.6,
            "attention_multiplier": 0.2,
        },
    ),
)

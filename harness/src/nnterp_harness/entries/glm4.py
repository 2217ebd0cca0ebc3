from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (
    Entry(
        "glm4",
        "glm4",
        {**GROUPED_LLAMA_SHAPE, "num_hidden_layers": 2, "head_dim": 16, "tie_word_embeddings": True},
    ),
)

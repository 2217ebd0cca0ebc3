from ..entry import GROUPED_LLAMA_SHAPE, Entry

#: Two blocks keep both kinds of `lambda_init` (it depends on the block index); the lambdas drawn wide enough to matter.
ENTRIES = (
    Entry(
        "diffllama",
        "diffllama",
        {**GROUPED_LLAMA_SHAPE, "num_hidden_layers": 2, "lambda_std_dev": 0.5, "tie_word_embeddings": True},
    ),
)

from ..entry import GROUPED_LLAMA_SHAPE, Entry

# Block 1 runs without rotary positions (`no_rope_layers`), so both kinds of block are kept.
ENTRIES = (
    Entry("smollm3", "smollm3", {**GROUPED_LLAMA_SHAPE, "no_rope_layers": [1, 0, 1], "tie_word_embeddings": True}),
)

from ..entry import GROUPED_LLAMA_SHAPE, Entry

# `num_key_value_heads` is unset by default, and the attention cannot be built without it.
ENTRIES = (Entry("nemotron", "nemotron", {**GROUPED_LLAMA_SHAPE, "head_dim": 16, "tie_word_embeddings": True}),)

from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (Entry("qwen3", "qwen3", {**GROUPED_LLAMA_SHAPE, "head_dim": 16, "tie_word_embeddings": True}),)

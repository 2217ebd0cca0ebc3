from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (Entry("arcee", "arcee", {**GROUPED_LLAMA_SHAPE, "head_dim": 16, "tie_word_embeddings": True}),)

from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (Entry("internlm3", "internlm3", {**GROUPED_LLAMA_SHAPE, "head_dim": 16, "tie_word_embeddings": True}),)

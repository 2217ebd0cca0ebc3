from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (Entry("gemma", "gemma", {**GROUPED_LLAMA_SHAPE, "head_dim": 16}),)

from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (Entry("llama", "llama", GROUPED_LLAMA_SHAPE),)

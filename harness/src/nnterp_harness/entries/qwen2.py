from ..entry import GROUPED_LLAMA_SHAPE, Entry

ENTRIES = (Entry("qwen2", "qwen2", GROUPED_LLAMA_SHAPE),)

from ..entry import GROUPED_LLAMA_SHAPE, Entry

# A `clip_qkv` that clamps some projections, so the in-place clamp runs.
ENTRIES = (Entry("olmo", "olmo", {**GROUPED_LLAMA_SHAPE, "clip_qkv": 1.5, "tie_word_embeddings": True}),)

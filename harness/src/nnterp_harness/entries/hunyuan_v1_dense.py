from ..entry import GROUPED_LLAMA_SHAPE, Entry

# `head_dim` is unset by default, and the attention cannot be built without it.
ENTRIES = (
    Entry("hunyuan_v1_dense", "hunyuan_v1_dense", {**GROUPED_LLAMA_SHAPE, "head_dim": 16, "tie_word_embeddings": True}),
)

from ..entry import GROUPED_LLAMA_SHAPE, Entry

#: Granite's four scales, each away from one so a family that drops one is caught.
GRANITE_SCALES = {
    "embedding_multiplier": 3.0,
    "residual_multiplier": 0.5,
    "attention_multiplier": 0.3,
    "logits_scaling": 2.5,
}

ENTRIES = (
    Entry("granite", "granite", {**GROUPED_LLAMA_SHAPE, **GRANITE_SCALES, "head_dim": 16, "tie_word_embeddings": True}),
)

from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: The Gemma line's tiny shape: grouped heads, both softcaps set, a short sliding window.
GEMMA_SHAPE = {
    "hidden_size": 64,
    "intermediate_size": 128,
    "num_hidden_layers": 3,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "query_pre_attn_scalar": 16,
    "final_logit_softcapping": 30.0,
    "attn_logit_softcapping": 50.0,
    "max_position_embeddings": MAX_POSITIONS,
    "sliding_window": 128,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
}

ENTRIES = (Entry("gemma2", "gemma2", GEMMA_SHAPE),)

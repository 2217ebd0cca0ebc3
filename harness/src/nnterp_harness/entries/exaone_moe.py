from ..entry import GROUPED_TOP_K_SHAPE, INIT_STD, MAX_POSITIONS, Entry

# A dense sliding-window block (window 8), then a full-attention block (no rotary embedding) with a mixture of
# 8 experts in 4 groups, 2 groups and 2 experts per token, and a shared expert.
ENTRIES = (
    Entry(
        "exaone_moe",
        "exaone_moe",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "moe_intermediate_size": 16,
            "num_experts": 8,
            "num_shared_experts": 1,
            **GROUPED_TOP_K_SHAPE,
            "layer_types": ["sliding_attention", "full_attention"],
            "sliding_window": 8,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

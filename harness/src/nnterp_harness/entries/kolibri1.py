from ..entry import INIT_STD, MAX_POSITIONS, Entry

# A sliding-window block (window 8, rotary) and a full-attention block (no rotary embedding), each with a mixture of
# 4 experts, 2 per token, and a shared expert.
ENTRIES = (
    Entry(
        "kolibri1",
        "kolibri1",
        {
            "hidden_size": 64,
            "moe_intermediate_size": 32,
            "shared_expert_intermediate_size": 32,
            "num_experts": 4,
            "num_experts_per_tok": 2,
            "num_hidden_layers": 2,
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

from ..entry import INIT_STD, MAX_POSITIONS, Entry

# A dense full-attention block (no rotary embedding), then a sliding-window block (window 8, rotary) with a mixture
# of 4 experts, 2 per token, and an ungated shared expert.
ENTRIES = (
    Entry(
        "flint",
        "flint",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "moe_intermediate_size": 32,
            "shared_expert_intermediate_size": 32,
            "num_experts": 4,
            "num_experts_per_tok": 2,
            "norm_topk_prob": True,
            "num_hidden_layers": 2,
            "mlp_only_layers": [0],
            "layer_types": ["full_attention", "sliding_attention"],
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

from ..entry import INIT_STD, MAX_POSITIONS, Entry

# One block of each kind, in the released order: a full-attention dense block, then a sliding-window mixture block
# (twice the key/value heads, with sinks); the window of 8 tokens is longer than a generated test prompt.
ENTRIES = (
    Entry(
        "mimo_v2_flash",
        "mimo_v2_flash",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "moe_intermediate_size": 16,
            "n_routed_experts": 8,
            "num_experts_per_tok": 2,
            "n_group": 4,
            "topk_group": 2,
            "norm_topk_prob": True,
            "routed_scaling_factor": 2.5,
            "num_hidden_layers": 2,
            "layer_types": ["full_attention", "sliding_attention"],
            "mlp_layer_types": ["dense", "sparse"],
            "sliding_window": 8,
            "num_attention_heads": 4,
            "num_key_value_heads": 1,
            "head_dim": 24,
            "v_head_dim": 16,
            "attention_value_scale": 0.5,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

from ..entry import INIT_STD, MAX_POSITIONS, Entry

# A sliding-window dense block, then a full-attention (unrotated, query-scaled) mixture block.
# Eight experts in two groups, one group kept per token, so the grouped choice narrows the routing.
ENTRIES = (
    Entry(
        "beam",
        "beam",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "moe_intermediate_size": 16,
            "num_experts": 8,
            "num_experts_per_tok": 2,
            "n_group": 2,
            "topk_group": 1,
            "routed_scaling_factor": 2.5,
            "final_logit_softcapping": 30.0,
            "num_hidden_layers": 2,
            "layer_types": ["sliding_attention", "full_attention"],
            "mlp_layer_types": ["dense", "sparse"],
            "sliding_window": 128,
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

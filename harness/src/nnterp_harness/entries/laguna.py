from ..entry import INIT_STD, MAX_POSITIONS, Entry

# One block of each kind: a sliding-window dense block, then a full-attention mixture block;
# the window of 8 tokens is longer than a generated test prompt (the cache keeps only the window).
ENTRIES = (
    Entry(
        "laguna",
        "laguna",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "moe_intermediate_size": 16,
            "shared_expert_intermediate_size": 32,
            "num_experts": 8,
            "num_experts_per_tok": 2,
            "moe_routed_scaling_factor": 2.5,
            "moe_router_logit_softcapping": 4.0,
            "num_hidden_layers": 2,
            "layer_types": ["sliding_attention", "full_attention"],
            "mlp_layer_types": ["dense", "sparse"],
            "sliding_window": 8,
            "num_attention_heads": 4,
            "num_attention_heads_per_layer": [4, 4],
            "num_key_value_heads": 2,
            "head_dim": 16,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

from ..entry import INIT_STD, MAX_POSITIONS, Entry

# A dense first block, then a mixture of 8 experts in 4 groups, 2 groups and 2 experts per token, with a shared
# expert; latent attention with a query latent and interleaved rotary weights.
ENTRIES = (
    Entry(
        "glm4_moe_lite",
        "glm4_moe_lite",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "moe_intermediate_size": 16,
            "n_routed_experts": 8,
            "n_shared_experts": 1,
            "num_experts_per_tok": 2,
            "n_group": 4,
            "topk_group": 2,
            "norm_topk_prob": True,
            "routed_scaling_factor": 1.8,
            "num_hidden_layers": 2,
            "mlp_layer_types": ["dense", "sparse"],
            "num_attention_heads": 4,
            "num_key_value_heads": 4,
            "q_lora_rank": 32,
            "kv_lora_rank": 32,
            "qk_rope_head_dim": 8,
            "qk_nope_head_dim": 16,
            "v_head_dim": 16,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

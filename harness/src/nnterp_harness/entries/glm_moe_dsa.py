from ..entry import INIT_STD, MAX_POSITIONS, Entry


def release_named_layer_types(model) -> None:
    """Save no `layer_types`: 5.17 names the indexed blocks `deepseek_sparse_attention` and later releases
    `indexed_attention`, and each rejects or mis-keys the other's name, so each release fills in its own on load."""
    model.config.layer_types = None


# A dense first block whose indexer keeps 8 keys per query (more than the suite's prompts have, fewer than the
# long prompt), then a mixture block that reuses that choice: 8 experts in 4 groups, 2 groups and 2 experts per
# token, and a shared expert.
ENTRIES = (
    Entry(
        "glm_moe_dsa",
        "glm_moe_dsa",
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
            "routed_scaling_factor": 2.5,
            "num_hidden_layers": 2,
            "mlp_layer_types": ["dense", "sparse"],
            "indexer_types": ["full", "shared"],
            "index_topk": 8,
            "index_head_dim": 16,
            "index_n_heads": 2,
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
        prepare=release_named_layer_types,
    ),
)

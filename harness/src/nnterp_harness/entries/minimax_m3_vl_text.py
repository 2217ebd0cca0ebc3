from ..entry import TEXT_DEFAULTS, Entry

# One block of each kind: a full-attention dense block, then a sparse-attention mixture block whose indexer keeps
# one 2-token key block beside the local one, so it masks keys on a test prompt.
ENTRIES = (
    Entry(
        "minimax_m3_vl_text",
        "minimax_m3_vl_text",
        {
            **TEXT_DEFAULTS,
            "intermediate_size": 16,
            "dense_intermediate_size": 64,
            "shared_intermediate_size": 32,
            "num_local_experts": 8,
            "num_experts_per_tok": 2,
            "routed_scaling_factor": 2.0,
            "num_hidden_layers": 2,
            "layer_types": ["full_attention", "minimax_m3_sparse"],
            "mlp_layer_types": ["dense", "sparse"],
            "index_n_heads": 2,
            "index_head_dim": 16,
            "index_block_size": 2,
            "index_topk_blocks": 1,
            "index_local_blocks": 1,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "rotary_dim": 8,
        },
    ),
)

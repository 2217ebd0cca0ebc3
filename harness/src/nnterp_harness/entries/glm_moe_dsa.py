from ..entry import GROUPED_TOP_K_SHAPE, LATENT_ATTENTION_SHAPE, Entry


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
            **GROUPED_TOP_K_SHAPE,
            "indexer_types": ["full", "shared"],
            "index_topk": 8,
            "index_head_dim": 16,
            "index_n_heads": 2,
            **LATENT_ATTENTION_SHAPE,
        },
        prepare=release_named_layer_types,
    ),
)

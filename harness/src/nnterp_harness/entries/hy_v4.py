from ..entry import INIT_STD, LATENT_ATTENTION_SHAPE, MAX_POSITIONS, Entry


def indexed_attention_unsupported() -> str | None:
    """Why this release cannot build an HY-V4 config, or `None`.

    HY-V4's config names every block `indexed_attention`; transformers 5.17's config
    validation does not list that layer type, so the model's own defaults fail.
    """
    import nnsight  # noqa: F401  - before any transformers modeling module
    from transformers import configuration_utils

    if "indexed_attention" in configuration_utils.ALLOWED_LAYER_TYPES:
        return None
    return (
        "this transformers release cannot build an HY-V4 config: its layer-type check rejects the 'indexed_attention' "
        "blocks the config declares (ValueError: The `layer_types` entries must be in (...) but got "
        "['indexed_attention', ...])"
    )


ENTRIES = (
    Entry(
        "hy_v4",
        "hy_v4",
        {
            **LATENT_ATTENTION_SHAPE,
            "hidden_size": 64,
            "intermediate_size": 64,
            "moe_intermediate_size": 16,
            "num_hidden_layers": 3,
            "n_routed_experts": 8,
            "n_shared_experts": 1,
            "num_experts_per_tok": 2,
            "routed_scaling_factor": 2.5,
            "mlp_layer_types": ["dense", "sparse", "sparse"],
            "indexer_types": ["full", "full", "shared"],
            "index_topk": 4,
            "index_head_dim": 16,
            "index_n_heads": 2,
            "hc_mult": 2,
            "hc_magnitude": 1.5,
            "learnable_sink_init": 0.5,
            "swiglu_limit": 3.0,
            "max_position_embeddings": MAX_POSITIONS,
            "initializer_range": INIT_STD,
        },
        cannot_run=indexed_attention_unsupported,
    ),
)

from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: Inkling in miniature: a sliding-window block with the dense MLP, then a full-attention block with the mixture
#: (four routed experts, two per token, one shared expert); both attentions take the relative position bias and
#: every sublayer its short convolutions. The window covers the test prompts; the log scaling of the full block's
#: queries starts past the second position, and the head divides by a width multiplier of 2 (the default 24 leaves
#: the tiny model's logits flat).
INKLING_SHAPE = {
    "hidden_size": 64,
    "intermediate_size": 96,
    "moe_intermediate_size": 32,
    "num_hidden_layers": 2,
    "layer_types": ["hybrid_sliding", "hybrid"],
    "mlp_layer_types": ["dense", "sparse"],
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "swa_num_attention_heads": 4,
    "swa_num_key_value_heads": 2,
    "swa_head_dim": 16,
    "sliding_window_size": 8,
    "d_rel": 4,
    "rel_extent": 16,
    "log_scaling_n_floor": 2,
    "conv_kernel_size": 4,
    "n_routed_experts": 4,
    "num_experts_per_tok": 2,
    "n_shared_experts": 1,
    "logits_mup_width_multiplier": 2.0,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
}


def embedding_norm_elsewhere() -> str | None:
    """Why this release loads the checkpoint without its embedding norm, or `None`.

    transformers 5.17 holds Inkling's embedding norm on the model (`model.embed_norm`);
    later releases hold it inside the embedding (`model.embed_tokens.embed_norm`), the
    name the checkpoint carries, so 5.17's load leaves the norm at its initial ones.
    """
    import nnsight  # noqa: F401  - before any transformers modeling module
    from transformers.models.inkling import modeling_inkling

    if hasattr(modeling_inkling, "InklingNormedEmbedding"):
        return None
    return (
        "this transformers release holds Inkling's embedding norm at model.embed_norm, where the checkpoint "
        "(written by later releases) has model.embed_tokens.embed_norm: its load leaves the norm at its initial ones"
    )


ENTRIES = (Entry("inkling_text", "inkling_text", INKLING_SHAPE, cannot_run=embedding_norm_elsewhere),)

from ..entry import TEXT_DEFAULTS, Entry

# A rotary dense block with L2-normed queries and keys, then an unrotated mixture block whose queries
# are temperature-scaled by position (a floor scale of 2 makes the scale grow within a prompt).
ENTRIES = (
    Entry(
        "llama4_text",
        "llama4_text",
        {
            **TEXT_DEFAULTS,
            "intermediate_size": 32,
            "intermediate_size_mlp": 64,
            "num_local_experts": 4,
            "num_experts_per_tok": 2,
            "interleave_moe_layer_step": 2,
            "num_hidden_layers": 2,
            "no_rope_layers": [1, 0],
            "attention_chunk_size": 128,
            "floor_scale": 2,
            "attn_scale": 0.25,
            "num_key_value_heads": 2,
            "head_dim": 16,
        },
    ),
)

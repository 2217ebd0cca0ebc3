from ..entry import INIT_STD, MAX_POSITIONS, Entry

# A rotary dense block with L2-normed queries and keys, then an unrotated mixture block whose queries
# are temperature-scaled by position (a floor scale of 2 makes the scale grow within a prompt).
ENTRIES = (
    Entry(
        "llama4_text",
        "llama4_text",
        {
            "hidden_size": 64,
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

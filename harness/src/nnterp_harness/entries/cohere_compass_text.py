from ..entry import INIT_STD, MAX_POSITIONS, Entry

# The rotary embedding is per layer type; the full-attention blocks run without one.
# The mrope sections split the 8 rotary frequencies of a 16-wide head.
ROPE = {
    "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [3, 3, 2]},
    "full_attention": None,
}

ENTRIES = (
    Entry(
        "cohere_compass_text",
        "cohere_compass_text",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "num_hidden_layers": 3,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "max_position_embeddings": MAX_POSITIONS,
            "layer_types": ["sliding_attention", "full_attention", "sliding_attention"],
            "rope_parameters": ROPE,
            "sliding_window": 128,
            "logit_scale": 0.5,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

from ..entry import INIT_STD, MAX_POSITIONS, Entry

# A sliding block then a full one, with a window of 8 tokens (shorter than the sliding checks' long prompt).
ENTRIES = (
    Entry(
        "gpt_oss",
        "gpt_oss",
        {
            "hidden_size": 64,
            "intermediate_size": 32,
            "num_local_experts": 4,
            "num_experts_per_tok": 2,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "sliding_window": 8,
            "layer_types": ["sliding_attention", "full_attention"],
            "swiglu_limit": 3.0,
            "rope_parameters": {
                "rope_type": "yarn",
                "rope_theta": 150000.0,
                "factor": 4.0,
                "beta_fast": 32.0,
                "beta_slow": 1.0,
                "truncate": False,
                "original_max_position_embeddings": MAX_POSITIONS // 4,
            },
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

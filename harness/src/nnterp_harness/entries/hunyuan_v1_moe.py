from ..entry import INIT_STD, MAX_POSITIONS, Entry

# `head_dim` is unset by default, and the attention cannot be built without it.
ENTRIES = (
    Entry(
        "hunyuan_v1_moe",
        "hunyuan_v1_moe",
        {
            "hidden_size": 64,
            "intermediate_size": 32,
            "num_experts": 4,
            "moe_topk": 2,
            "num_hidden_layers": 2,
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

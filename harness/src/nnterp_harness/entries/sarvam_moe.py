from ..entry import INIT_STD, MAX_POSITIONS, Entry
from .deepseek_v3 import GROUPED_SIGMOID_MOE

ENTRIES = (
    Entry(
        "sarvam_moe",
        "sarvam_moe",
        {
            **GROUPED_SIGMOID_MOE,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "use_qk_norm": True,
            "attention_bias": True,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

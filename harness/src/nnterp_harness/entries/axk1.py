from ..entry import INIT_STD, MAX_POSITIONS, Entry
from .deepseek_v3 import GROUPED_SIGMOID_MOE

ENTRIES = (
    Entry(
        "axk1",
        "axk1",
        {
            **GROUPED_SIGMOID_MOE,
            "num_attention_heads": 4,
            "num_key_value_heads": 4,
            "q_lora_rank": 32,
            "kv_lora_rank": 32,
            "qk_rope_head_dim": 8,
            "qk_nope_head_dim": 16,
            "v_head_dim": 16,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

from ..entry import GROUPED_LLAMA_SHAPE, Entry

# Latent attention: low-rank query and key/value paths, query/key heads of 16 (8 without and 8 with rotary positions), value heads of 12.
ENTRIES = (
    Entry(
        "youtu",
        "youtu",
        {
            **GROUPED_LLAMA_SHAPE,
            "num_key_value_heads": 4,
            "head_dim": 8,
            "q_lora_rank": 32,
            "kv_lora_rank": 16,
            "qk_rope_head_dim": 8,
            "qk_nope_head_dim": 8,
            "v_head_dim": 12,
        },
    ),
)

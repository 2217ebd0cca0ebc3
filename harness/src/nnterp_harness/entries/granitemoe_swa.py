from ..entry import INIT_STD, MAX_POSITIONS, Entry
from .granite import GRANITE_SCALES

# A full-attention block and a sliding one (window 8) without rotary embedding (theta 0), each with a
# mixture of 4 experts and the block's shared MLP beside it.
ENTRIES = (
    Entry(
        "granitemoe_swa",
        "granitemoe_swa",
        {
            **GRANITE_SCALES,
            "hidden_size": 64,
            "intermediate_size": 24,
            "shared_intermediate_size": 32,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "num_local_experts": 4,
            "num_experts_per_tok": 2,
            "sliding_window": 8,
            "layer_types": ["full_attention", "sliding_attention"],
            "layer_rope_theta": [10000.0, 0.0],
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

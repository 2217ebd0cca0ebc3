from ..entry import INIT_STD, MAX_POSITIONS, Entry
from .granite import GRANITE_SCALES

ENTRIES = (
    Entry(
        "granitemoeshared",
        "granitemoeshared",
        {
            **GRANITE_SCALES,
            "hidden_size": 64,
            "intermediate_size": 32,
            "shared_intermediate_size": 48,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "num_local_experts": 4,
            "num_experts_per_tok": 2,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

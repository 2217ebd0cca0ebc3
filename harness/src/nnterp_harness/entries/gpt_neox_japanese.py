from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "gpt_neox_japanese",
        "gpt_neox_japanese",
        {
            "hidden_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "intermediate_multiple_size": 2,
            "max_position_embeddings": MAX_POSITIONS,
            # Whole-head rotary: transformers 5.17 sizes the rotary table by the whole head
            # whatever partial_rotary_factor says, so a partial share fails there.
            "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0},
            "attention_dropout": 0.0,
            "hidden_dropout": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

from ..entry import INIT_STD, MAX_POSITIONS, Entry

# Built sequential, so the checkpoint holds every norm; the test of the parallel
# block loads the same weights with `use_parallel_residual` written into its config.
ENTRIES = (
    Entry(
        "stablelm",
        "stablelm",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "num_hidden_layers": 3,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "max_position_embeddings": MAX_POSITIONS,
            "use_parallel_residual": False,
            "qk_layernorm": True,
            "use_qkv_bias": True,
            "tie_word_embeddings": True,
            "hidden_dropout": 0.0,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
        },
    ),
)

from ..entry import Entry

ENTRIES = (
    Entry(
        "cpmant",
        "cpmant",
        {
            "hidden_size": 64,
            "num_attention_heads": 4,
            "dim_head": 16,
            "dim_ff": 96,
            "num_hidden_layers": 2,
            "dropout_p": 0.0,
            "position_bias_num_buckets": 32,
            "position_bias_max_distance": 128,
            # The forward embeds the prompt ids of the third prompt type, so three types are the fewest that run.
            "prompt_types": 3,
            "prompt_length": 3,
            "segment_types": 4,
            "init_std": 0.15,
        },
    ),
)

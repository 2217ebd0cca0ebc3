from ..entry import INIT_STD, MAX_POSITIONS, Entry

# One block of each kind: a sliding-window dense block, a full-attention mixture block and a sliding-window mixture
# block; the window of 8 tokens is longer than a generated test prompt (the cache keeps only the window).
ENTRIES = (
    Entry(
        "mellum",
        "mellum",
        {
            "hidden_size": 64,
            "intermediate_size": 64,
            "moe_intermediate_size": 16,
            "num_local_experts": 4,
            "num_experts_per_tok": 2,
            "norm_topk_prob": False,
            "num_hidden_layers": 3,
            "layer_types": ["sliding_attention", "full_attention", "sliding_attention"],
            "mlp_layer_types": ["dense", "sparse", "sparse"],
            "sliding_window": 8,
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

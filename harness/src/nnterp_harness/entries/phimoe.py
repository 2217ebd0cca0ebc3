from ..entry import INIT_STD, MAX_POSITIONS, Entry

ENTRIES = (
    Entry(
        "phimoe",
        "phimoe",
        {
            "hidden_size": 64,
            "intermediate_size": 32,
            "num_local_experts": 4,
            "num_experts_per_tok": 2,
            # At inference the sparse mixer keeps, per slot, the logits within this relative
            # distance of the best one in its softmax: wide enough that the weights differ from one.
            "router_jitter_noise": 0.6,
            "input_jitter_noise": 0.0,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "lm_head_bias": True,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
    ),
)

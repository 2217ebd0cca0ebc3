from ..entry import INIT_STD, MAX_POSITIONS, Entry

SHAPE = {
    "hidden_size": 64,
    "ffn_hidden_size": 96,
    "num_hidden_layers": 3,
    "num_attention_heads": 4,
    "max_position_embeddings": MAX_POSITIONS,
    "parallel_attn": True,
    "alibi": False,
    "bias": True,
    "hidden_dropout": 0.0,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
}

ENTRIES = (
    # Falcon-7B's layout: one norm feeds both sublayers, one key/value head (multi-query).
    Entry("falcon", "falcon", {**SHAPE, "multi_query": True, "new_decoder_architecture": False}),
    # Falcon-40B's layout: a norm per sublayer, grouped key/value heads.
    Entry(
        "falcon_40b",
        "falcon",
        {**SHAPE, "new_decoder_architecture": True, "num_kv_heads": 2, "num_ln_in_parallel_attn": 2},
    ),
)

from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: Bamba in miniature: a Mamba-2 block, then an attention block, each with a gated MLP.
BAMBA_SHAPE = {
    "hidden_size": 64,
    "intermediate_size": 96,
    "num_hidden_layers": 2,
    "attn_layer_indices": [1],
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "mamba_n_heads": 4,
    "mamba_n_groups": 2,
    "mamba_d_state": 16,
    "mamba_d_conv": 4,
    "mamba_expand": 2,
    "mamba_chunk_size": 4,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
}

ENTRIES = (Entry("bamba", "bamba", BAMBA_SHAPE),)

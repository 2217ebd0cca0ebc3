from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: LFM2 in miniature: a short-convolution block, then an attention block; the MLP width is taken as given.
LFM2_SHAPE = {
    "hidden_size": 64,
    "intermediate_size": 96,
    "block_auto_adjust_ff_dim": False,
    "num_hidden_layers": 2,
    "full_attn_idxs": [1],
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "conv_L_cache": 3,
    "conv_bias": True,
    "max_position_embeddings": MAX_POSITIONS,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
}

ENTRIES = (Entry("lfm2", "lfm2", LFM2_SHAPE),)

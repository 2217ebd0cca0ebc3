from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: OLMo-Hybrid in miniature: a post-norm attention block between two pre-norm gated DeltaNet blocks.
OLMO_HYBRID_SHAPE = {
    "hidden_size": 64,
    "intermediate_size": 96,
    "num_hidden_layers": 3,
    "layer_types": ["linear_attention", "full_attention", "linear_attention"],
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "linear_num_key_heads": 2,
    "linear_num_value_heads": 4,
    "linear_key_head_dim": 16,
    "linear_value_head_dim": 16,
    "linear_conv_kernel_dim": 4,
    "linear_allow_neg_eigval": True,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
}

ENTRIES = (Entry("olmo_hybrid", "olmo_hybrid", OLMO_HYBRID_SHAPE),)

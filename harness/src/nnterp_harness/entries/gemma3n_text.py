from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: Three blocks keep every kind: a sliding and a full block that compute their keys and values, then a sliding
#: block reusing the first one's; the MLP width differs per block and only the first MLP sparsifies its gate.
GEMMA3N_SHAPE = {
    "hidden_size": 64,
    "intermediate_size": [64, 32, 48],
    "num_hidden_layers": 3,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "layer_types": ["sliding_attention", "full_attention", "sliding_attention"],
    "num_kv_shared_layers": 1,
    "activation_sparsity_pattern": [0.95, 0.0, 0.0],
    "altup_num_inputs": 3,
    "laurel_rank": 8,
    "vocab_size_per_layer_input": 1024,
    "hidden_size_per_layer_input": 4,
    "final_logit_softcapping": 3.0,
    "max_position_embeddings": MAX_POSITIONS,
    "sliding_window": 128,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
}

ENTRIES = (Entry("gemma3n_text", "gemma3n_text", GEMMA3N_SHAPE),)

from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: Zamba2 in miniature: a Mamba block, then two hybrid blocks sharing one transformer block, with adapters and rope.
ZAMBA2_SHAPE = {
    "hidden_size": 64,
    "intermediate_size": 64,
    "num_hidden_layers": 3,
    "layers_block_type": ["linear_attention", "hybrid", "hybrid"],
    "num_attention_heads": 4,
    # The adapters add an `attention_hidden_size` wide term to the keys and values too.
    "num_key_value_heads": 4,
    "n_mamba_heads": 4,
    "mamba_expand": 1,
    "mamba_ngroups": 2,
    "mamba_d_state": 16,
    "mamba_d_conv": 4,
    "chunk_size": 4,
    "num_mem_blocks": 1,
    "use_shared_attention_adapter": True,
    "adapter_rank": 4,
    "use_mem_rope": True,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
}

ENTRIES = (Entry("zamba2", "zamba2", ZAMBA2_SHAPE),)

from ..entry import INIT_STD, Entry

#: Mamba-2 in miniature: two mixer blocks of 4 heads of width 32 in 2 groups, 4-token chunks.
MAMBA2_SHAPE = {
    "hidden_size": 64,
    "num_heads": 4,
    "head_dim": 32,
    "n_groups": 2,
    "state_size": 16,
    "num_hidden_layers": 2,
    "expand": 2,
    "conv_kernel": 4,
    "chunk_size": 4,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
}

ENTRIES = (Entry("mamba2", "mamba2", MAMBA2_SHAPE),)

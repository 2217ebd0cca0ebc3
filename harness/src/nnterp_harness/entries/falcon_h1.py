from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: Falcon-H1 in miniature: two blocks, each a Mamba-2 mixer beside an attention, then a gated MLP; every
#: multiplier moved off 1.0 so a missed one shows.
FALCON_H1_SHAPE = {
    "hidden_size": 64,
    "intermediate_size": 96,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "mamba_d_ssm": 64,
    "mamba_n_heads": 4,
    "mamba_d_head": 16,
    "mamba_n_groups": 2,
    "mamba_d_state": 16,
    "mamba_d_conv": 4,
    "mamba_expand": 1,
    "mamba_chunk_size": 4,
    "lm_head_multiplier": 0.75,
    "embedding_multiplier": 1.5,
    "mlp_multipliers": [0.8, 1.25],
    "key_multiplier": 0.9,
    "attention_out_multiplier": 0.7,
    "attention_in_multiplier": 1.3,
    "ssm_multipliers": [1.1, 0.9, 1.2, 0.8, 1.05],
    "ssm_in_multiplier": 1.2,
    "ssm_out_multiplier": 0.6,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
}

ENTRIES = (Entry("falcon_h1", "falcon_h1", FALCON_H1_SHAPE),)

from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: MiniMax in miniature: a lightning attention block, then a softmax attention block, both with a mixture. The
#: lightning blocks are 4 tokens long, so a prompt crosses a block boundary, and every add weighs its stream and its
#: contribution by factors other than one.
MINIMAX_SHAPE = {
    "hidden_size": 64,
    "intermediate_size": 32,
    "num_local_experts": 4,
    "num_experts_per_tok": 2,
    "num_hidden_layers": 2,
    "layer_types": ["linear_attention", "full_attention"],
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "block_size": 4,
    "linear_attn_alpha_factor": 1.25,
    "linear_attn_beta_factor": 0.75,
    "full_attn_alpha_factor": 0.8,
    "full_attn_beta_factor": 1.5,
    "mlp_alpha_factor": 1.1,
    "mlp_beta_factor": 0.6,
    "router_jitter_noise": 0.0,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
}

ENTRIES = (Entry("minimax", "minimax", MINIMAX_SHAPE),)

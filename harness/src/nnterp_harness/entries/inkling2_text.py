from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: Inkling 2 in miniature: three blocks in attention-residual groups of two, so block 0 opens a group with no
#: attention input, block 1 is a full-attention block inside the group (its queries, keys and values each mixed from
#: the group states) and block 2 a sliding-window block opening the next group; two query heads over one key/value
#: head, and every block a mixture of four narrow experts, two per token. The window covers the test prompts; the
#: full block's log scaling starts past the second position. The head is narrower than the embedding, as on the
#: released checkpoint, whose vocabulary is padded: it drops the last 24 of the shared 1,024 ids (none a prompt or
#: answer token), so the logits are `unpadded_vocab_size` wide.
INKLING2_SHAPE = {
    "hidden_size": 64,
    "moe_intermediate_size": 16,
    "num_hidden_layers": 3,
    "layer_types": ["hybrid_sliding", "hybrid", "hybrid_sliding"],
    "n_layers_per_attn_res_block": 2,
    "num_attention_heads": 2,
    "num_key_value_heads": 1,
    "head_dim": 16,
    "swa_num_attention_heads": 2,
    "swa_num_key_value_heads": 1,
    "swa_head_dim": 16,
    "sliding_window_size": 8,
    "d_rel": 4,
    "rel_extent": 16,
    "log_scaling_n_floor": 2,
    "conv_kernel_size": 4,
    "n_routed_experts": 4,
    "num_experts_per_tok": 2,
    "unpadded_vocab_size": 1000,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
}

ENTRIES = (Entry("inkling2_text", "inkling2_text", INKLING2_SHAPE),)

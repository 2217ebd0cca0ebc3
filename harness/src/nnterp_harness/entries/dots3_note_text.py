from ..entry import LATENT_ATTENTION_SHAPE, Entry

#: Three blocks, one of each kind: a dense indexed block, an indexed mixture block and a sliding mixture block.
DOTS3_TEXT_SHAPE = {
    **LATENT_ATTENTION_SHAPE,
    "hidden_size": 64,
    "intermediate_size": 64,
    "moe_intermediate_size": 16,
    "shared_experts_intermediate_size": 16,
    "n_routed_experts": 8,
    "n_shared_experts": 1,
    "num_experts_per_tok": 2,
    "n_group": 4,
    "topk_group": 2,
    "norm_topk_prob": True,
    "routed_scaling_factor": 2.5,
    "first_k_dense_replace": 1,
    "num_hidden_layers": 3,
    "head_dim": 24,
    # The indexer keeps 4 keys per query, fewer than the test prompts' tokens, so the sparsity shows.
    "index_topk": 4,
    "index_head_dim": 16,
    "index_n_heads": 2,
    # The sliding blocks take their own latent sizes; the window is shorter than the test prompts.
    "sliding_window": 3,
    "swa_num_attention_heads": 2,
    "swa_num_key_value_heads": 2,
    "swa_q_lora_rank": 16,
    "swa_kv_lora_rank": 16,
    "swa_head_dim": 24,
    "swa_qk_nope_head_dim": 16,
    "swa_v_head_dim": 16,
}

ENTRIES = (Entry("dots3_note_text", "dots3_note_text", DOTS3_TEXT_SHAPE),)

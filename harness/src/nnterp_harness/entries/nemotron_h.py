from ..entry import TEXT_DEFAULTS, Entry

#: Nemotron-H in miniature: one block of each kind, a Mamba-2 mixer, an MLP, a mixture and an attention.
NEMOTRON_H_SHAPE = {
    **TEXT_DEFAULTS,
    "layers_block_type": ["linear_attention", "mlp", "moe", "full_attention"],
    "num_hidden_layers": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "intermediate_size": 96,
    "mamba_num_heads": 4,
    "mamba_head_dim": 16,
    "n_groups": 2,
    "ssm_state_size": 16,
    "conv_kernel": 4,
    "chunk_size": 4,
    "n_routed_experts": 4,
    "num_experts_per_tok": 2,
    "n_group": 2,
    "topk_group": 1,
    "moe_intermediate_size": 32,
    "moe_shared_expert_intermediate_size": 48,
    "routed_scaling_factor": 2.5,
    "hidden_dropout": 0.0,
}

ENTRIES = (Entry("nemotron_h", "nemotron_h", NEMOTRON_H_SHAPE),)

from ..entry import LATENT_ATTENTION_SHAPE, Entry

ENTRIES = (
    Entry(
        "longcat_flash",
        "longcat_flash",
        {
            **LATENT_ATTENTION_SHAPE,
            "hidden_size": 64,
            # Two blocks (four attentions, four cache slots), so the seam between blocks is held as well.
            "num_layers": 2,
            "ffn_hidden_size": 32,
            # Four experts with weights and two zero-computation (identity) experts, two slots per token.
            "n_routed_experts": 4,
            "zero_expert_num": 2,
            "moe_topk": 2,
            "expert_ffn_hidden_size": 8,
            "routed_scaling_factor": 2.0,
            # The rotary embedding is `head_dim` wide and rotates the `qk_rope_head_dim` part of each query and key.
            "head_dim": LATENT_ATTENTION_SHAPE["qk_rope_head_dim"],
        },
    ),
)

from ..entry import TEXT_DEFAULTS, Entry

#: Qwen3.5's hybrid in miniature: one gated DeltaNet block, then one gated-query attention block.
QWEN3_5_SHAPE = {
    **TEXT_DEFAULTS,
    "intermediate_size": 96,
    "num_hidden_layers": 2,
    "layer_types": ["linear_attention", "full_attention"],
    "num_key_value_heads": 2,
    "head_dim": 16,
    "linear_num_key_heads": 2,
    "linear_num_value_heads": 4,
    "linear_key_head_dim": 16,
    "linear_value_head_dim": 16,
    "linear_conv_kernel_dim": 4,
}

ENTRIES = (Entry("qwen3_5_text", "qwen3_5_text", QWEN3_5_SHAPE),)

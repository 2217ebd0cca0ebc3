from ..entry import INIT_STD, MAX_POSITIONS, Entry
from .granite import GRANITE_SCALES

#: Granite-4 in miniature: a Mamba-2 block, then an attention block, each with a mixture and a shared MLP.
GRANITEMOEHYBRID_SHAPE = {
    **GRANITE_SCALES,
    "hidden_size": 64,
    "intermediate_size": 32,
    "shared_intermediate_size": 48,
    "num_hidden_layers": 2,
    "layer_types": ["linear_attention", "full_attention"],
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "num_local_experts": 4,
    "num_experts_per_tok": 2,
    "mamba_n_heads": 4,
    "mamba_n_groups": 2,
    "mamba_d_state": 16,
    "mamba_d_conv": 4,
    "mamba_expand": 2,
    "mamba_chunk_size": 4,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
}

ENTRIES = (Entry("granitemoehybrid", "granitemoehybrid", GRANITEMOEHYBRID_SHAPE),)

from ..entry import INIT_STD, MAX_POSITIONS, Entry
from .deepseek_v3 import GROUPED_SIGMOID_MOE


def unnamed_layer_types(model) -> None:
    """Save no `layer_types`: each release fills in its own name for the indexed blocks when it loads the config."""
    model.config.layer_types = None


ENTRIES = (
    Entry(
        "deepseek_v32",
        "deepseek_v32",
        {
            **GROUPED_SIGMOID_MOE,
            "num_attention_heads": 4,
            "num_key_value_heads": 4,
            "q_lora_rank": 32,
            "kv_lora_rank": 32,
            "qk_rope_head_dim": 8,
            "qk_nope_head_dim": 16,
            "v_head_dim": 16,
            # The indexer keeps 4 keys per query, fewer than the test prompts' tokens, so the sparsity shows.
            "index_topk": 4,
            "index_head_dim": 16,
            "index_n_heads": 2,
            "max_position_embeddings": MAX_POSITIONS,
            "attention_dropout": 0.0,
            "initializer_range": INIT_STD,
            "tie_word_embeddings": True,
        },
        prepare=unnamed_layer_types,
    ),
)

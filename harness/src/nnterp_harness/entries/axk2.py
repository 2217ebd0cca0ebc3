from ..entry import LATENT_ATTENTION_SHAPE, Entry
from .deepseek_v3 import GROUPED_SIGMOID_MOE
from .deepseek_v32 import unnamed_layer_types

ENTRIES = (
    Entry(
        "axk2",
        "axk2",
        {
            **GROUPED_SIGMOID_MOE,
            **LATENT_ATTENTION_SHAPE,
            # The indexer keeps 4 keys per query, fewer than the test prompts' tokens, so the sparsity shows.
            "index_topk": 4,
            "index_head_dim": 16,
            "index_n_heads": 2,
            "gated_norm_rank": 8,
        },
        prepare=unnamed_layer_types,
    ),
)

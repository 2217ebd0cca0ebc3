from ..entry import LATENT_ATTENTION_SHAPE, Entry
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
            **LATENT_ATTENTION_SHAPE,
            # The indexer keeps 4 keys per query, fewer than the test prompts' tokens, so the sparsity shows.
            "index_topk": 4,
            "index_head_dim": 16,
            "index_n_heads": 2,
        },
        prepare=unnamed_layer_types,
    ),
)

"""NeoMME (`neomme`, `NeoMMEForMaskedLM`): a bidirectional encoder with factorized embeddings and scaled adds.

A global block, which adds the value embeddings to its values, then a sliding one
(two keys on each side); the token table is 32 wide, projected onto the 64-wide
stream. The init leaves each block's mix of the stream and the initial states at
`(1, 0)`, which hides the initial states from the attention; `prepare` draws it.
"""

import torch

from ..entry import TEXT_DEFAULTS, Entry


def prepare(model) -> None:
    """Draw each block's mixing weights, so the attention reads both the stream and the initial states."""
    generator = torch.Generator().manual_seed(0)
    for block in model.model.layers:
        block.lambdas.copy_(torch.tensor([1.0, 0.5]) + 0.1 * torch.randn(2, generator=generator))


ENTRIES = (
    Entry(
        "neomme",
        "neomme",
        {
            **TEXT_DEFAULTS,
            "embedding_rank": 32,
            "intermediate_size": 96,
            "num_hidden_layers": 2,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "layer_types": ["full_attention", "sliding_attention"],
            "sliding_window": 2,
            "max_position_embeddings": 128,
            "patch_size": 4,
        },
        tokenizer="encoder",
        auto_class="AutoModelForMaskedLM",
        prepare=prepare,
    ),
)

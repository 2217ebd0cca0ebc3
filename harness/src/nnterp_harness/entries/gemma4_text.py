import torch

from ..entry import Entry
from .gemma2 import GEMMA_SHAPE

#: The Gemma 4 tiny shape: one sliding and one full-attention block, the full one with wider heads.
GEMMA4_SHAPE = {
    **{
        key: value
        for key, value in GEMMA_SHAPE.items()
        if key not in ("query_pre_attn_scalar", "attn_logit_softcapping")
    },
    "num_hidden_layers": 2,
    "layer_types": ["sliding_attention", "full_attention"],
    "global_head_dim": 32,
    "final_logit_softcapping": 3.0,
}


def scale_blocks(model) -> None:
    """Give each block a `layer_scalar` other than one, so that a missed scale shows."""
    with torch.no_grad():
        for index, block in enumerate(model.model.layers):
            block.layer_scalar.fill_(0.75 + 0.125 * index)


ENTRIES = (
    Entry(
        "gemma4_text",
        "gemma4_text",
        {**GEMMA4_SHAPE, "vocab_size_per_layer_input": 1024, "hidden_size_per_layer_input": 8},
        prepare=scale_blocks,
    ),
)

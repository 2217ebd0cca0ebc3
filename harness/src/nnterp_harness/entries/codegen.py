import torch

from ..entry import INIT_STD, MAX_POSITIONS, Entry


def prepare(model) -> None:
    """Draw the attention projections from a generator of their own.

    The releases of the matrix create CodeGen's `qkv_proj` and `out_proj` in different
    orders, so the shared random init gives them different weights on each; drawn
    here, block by block, they rebuild bit for bit everywhere.
    """
    generator = torch.Generator().manual_seed(0)
    for block in model.transformer.h:
        for linear in (block.attn.qkv_proj, block.attn.out_proj):
            linear.weight.copy_(torch.randn(linear.weight.shape, generator=generator) * INIT_STD)


ENTRIES = (
    Entry(
        "codegen",
        "codegen",
        {
            "n_embd": 64,
            "n_inner": 64,
            "n_layer": 3,
            "n_head": 4,
            "rotary_dim": 8,
            "n_positions": MAX_POSITIONS,
            "tie_word_embeddings": True,
            "resid_pdrop": 0.0,
            "embd_pdrop": 0.0,
            "attn_pdrop": 0.0,
            "initializer_range": INIT_STD,
        },
        prepare=prepare,
    ),
)

"""`PerBlockHeadWidthChecks`: the contract of a family whose head width differs per block (Gemma 4).

A family's test class declares it in `CHECKS`. The tiny checkpoints hold a sliding block of width
`SLIDING_WIDTH` and a global block of width `GLOBAL_WIDTH`; each block's attention
answers its own width, the root answers the first block's, and the keys of the global
block are as wide as that block says.
"""

from __future__ import annotations

from nnterp import axis_size

from .helpers import run


class PerBlockHeadWidthChecks:
    """Checks for per-block head widths; the class it is mixed into is a `FamilySuite`."""

    SLIDING_WIDTH = 16
    GLOBAL_WIDTH = 32

    def test_head_widths_differ_per_block(self, model):
        sliding, full = (block.self_attn for block in model.layers)
        assert axis_size(sliding, "head_dim") == self.SLIDING_WIDTH
        assert axis_size(full, "head_dim") == self.GLOBAL_WIDTH
        assert model.head_dim == self.SLIDING_WIDTH
        keys = run(model, lambda m: m.layers[1].self_attn.attention_keys)
        assert keys.shape[-1] == self.GLOBAL_WIDTH and keys.shape[1] == axis_size(full, "num_kv_heads")

"""Cohere 2, end to end: Cohere's parallel block over sliding and global blocks, and the scaled head.

The block adds `(x + attn) + mlp`, the identity's own order, so the suite's identity
holds bit for bit here although the block is parallel.
"""

from nnterp_harness.parallel import OneNormParallelChecks
from nnterp_harness.release import family
from nnterp_harness.scaled import LogitScaleChecks
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("cohere2")


class TestCohere2(FamilySuite):
    CHECKS = (LogitScaleChecks, OneNormParallelChecks)
    CHECKPOINT = "cohere2"
    FAMILY = FAMILY
    NATIVE = {key: value for key, value in LLAMA_ROWS.items() if key != "layers.0.post_attention_layernorm"}
    EXACT_IDENTITY = True

    def test_both_attention_kinds_are_there(self, model):
        kinds = [model.layers[i].self_attn._module.sliding_window for i in range(len(model.layers))]
        assert None in kinds and any(kind is not None for kind in kinds)

"""Cohere, end to end: a one-norm parallel block and a head scaled by `logit_scale`.

The block adds `(x + attn) + mlp`, the identity's own order, so the suite's identity
holds bit for bit here although the block is parallel.
"""

from nnterp_harness.parallel import OneNormParallelChecks
from nnterp_harness.release import family
from nnterp_harness.scaled import LogitScaleChecks
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("cohere")


class TestCohere(FamilySuite):
    CHECKS = (LogitScaleChecks, OneNormParallelChecks)
    CHECKPOINT = "cohere"
    FAMILY = FAMILY
    NATIVE = {key: value for key, value in LLAMA_ROWS.items() if key != "layers.0.post_attention_layernorm"}
    EXACT_IDENTITY = True

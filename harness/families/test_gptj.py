"""GPT-J, end to end: a one-norm parallel block with a partial rotary embedding.

The block sums `attn + mlp + x`, another order than the identity's `(x + attn) + mlp`,
so the suite's identity holds here to float32 ulps, not bit for bit.
"""

from nnterp_harness.parallel import OneNormParallelChecks
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("gptj")


class TestGPTJ(FamilySuite):
    CHECKS = (OneNormParallelChecks,)
    CHECKPOINT = "gptj"
    FAMILY = FAMILY
    NATIVE = rows("transformer", "h", "wte", "ln_f", attn="attn", ln1="ln_1", ln2=None)
    MLP_WIDTH_KEY = "n_inner"

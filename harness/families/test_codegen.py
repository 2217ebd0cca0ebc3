"""CodeGen, end to end: a one-norm parallel block with a partial rotary embedding.

The block sums `attn + mlp + x`, another order than the identity's `(x + attn) + mlp`,
so the suite's identity holds here to float32 ulps, not bit for bit.
"""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("codegen")


class TestCodeGen(FamilySuite):
    CHECKPOINT = "codegen"
    FAMILY = FAMILY
    NATIVE = rows("transformer", "h", "wte", "ln_f", attn="attn", ln1="ln_1", ln2=None)
    EXPECTED_UNAVAILABLE = {"layer_mid": "a parallel block"}
    MLP_NORM = "input_layernorm"
    MLP_NORM_BEFORE_ATTENTION = True
    MLP_WIDTH_KEY = "n_inner"

    def test_one_norm_feeds_both_sublayers(self, model):
        with model.trace("The Eiffel Tower is in"):
            attn_in = model.layers[0].attention_norm_output.save()
            mlp_in = model.layers[0].mlp_norm_output.save()
        assert torch.equal(attn_in, mlp_in)

"""Phi, end to end: a one-norm parallel block whose contributions pass the block's dropout.

The block sums `attn + mlp + x`, another order than the identity's `(x + attn) + mlp`,
so the suite's identity holds here to float32 ulps, not bit for bit.
"""

import torch

from nnterp_harness.parallel import OneNormParallelChecks
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("phi")


class TestPhi(FamilySuite):
    CHECKS = (OneNormParallelChecks,)
    CHECKPOINT = "phi"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "final_layernorm", ln2=None)

    def test_the_contributions_are_the_dropout_calls(self, model):
        block = model.layers[1]
        with model.trace("The Eiffel Tower is in"):
            attn_module = block.self_attn.output[0].save()
            attn = block.self_attn.attention_output.save()
            mlp_module = block.mlp.output.save()
            mlp = block.mlp.mlp_output.save()
        # The dropout is the identity in eval mode: what the block adds is each module's output.
        assert torch.equal(attn, attn_module) and torch.equal(mlp, mlp_module)
        assert not torch.equal(attn, mlp)

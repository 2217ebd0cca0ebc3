"""`OneNormParallelChecks`: the contract of a parallel block with one norm (GPT-J, CodeGen, Phi, Cohere).

A family's test class declares it in `CHECKS`. The attention and the MLP read the same normed
input, so there is no `layer_mid`, and the MLP's norm is the attention's, run before
the attention. `EXACT_IDENTITY` states that the block adds `(x + attn) + mlp`, the
identity's own order, so the identity holds bit for bit rather than to the suite's
ulps.
"""

from __future__ import annotations

import torch

from .helpers import run

#: `EXPECTED_UNAVAILABLE` entry of every parallel block.
PARALLEL_UNAVAILABLE = {"layer_mid": "a parallel block"}


class OneNormParallelChecks:
    """Checks for a one-norm parallel block; the class it is mixed into is a `FamilySuite`."""

    EXPECTED_UNAVAILABLE = PARALLEL_UNAVAILABLE
    MLP_NORM = "input_layernorm"
    MLP_NORM_BEFORE_ATTENTION = True
    EXACT_IDENTITY = False

    def test_one_norm_feeds_both_sublayers(self, model):
        attn_in, mlp_in = run(model, lambda m: (m.layers[0].attention_norm_output, m.layers[0].mlp_norm_output))
        assert torch.equal(attn_in, mlp_in)

    def test_the_identity_is_exact_where_the_block_adds_in_its_order(self, model):
        if not self.EXACT_IDENTITY:
            return
        last = len(model.layers) - 1

        def body(m):
            block = m.layers[last]
            return block.layer_input, block.self_attn.attention_output, block.mlp.mlp_output, block.layer_output

        x, attn, mlp, out = run(model, body)
        assert torch.equal(x + attn + mlp, out), "the block does not add (x + attn) + mlp"

"""`PostNormChecks`: the contract of a post-norm family (OLMo 2's block), whose sublayer outputs are normed before each add.

A family's test class declares it in `CHECKS`. No norm feeds either sublayer, so the pre-norm values
are expected unavailable and the sublayer-input checks take the stream itself; the
post-norms keep their native names, and each contribution is its post-norm's output.
"""

from __future__ import annotations

import torch

from .helpers import rows, run

#: A post-norm block's rows: no pre-norm, the post-norms keep their native names.
POST_NORM_ROWS = rows("model", "layers", "embed_tokens", "norm", ln1=None, ln2=None)
#: `EXPECTED_UNAVAILABLE` entries of every post-norm block.
POST_NORM_UNAVAILABLE = {"attention_norm_output": "post-norm block", "mlp_norm_output": "post-norm block"}


class PostNormChecks:
    """Checks for a post-norm block; the class it is mixed into is a `FamilySuite`."""

    NATIVE = POST_NORM_ROWS
    EXPECTED_UNAVAILABLE = POST_NORM_UNAVAILABLE
    ATTENTION_NORM = None
    MLP_NORM = None

    def test_the_contributions_are_the_post_norms(self, model):
        def body(m):
            block = m.layers[0]
            return (
                block.self_attn.attention_output,
                block.post_attention_layernorm.output,
                block.mlp.output,
                block.mlp.mlp_output,
                block.post_feedforward_layernorm.output,
            )

        attn, attn_norm, mlp_module, mlp, mlp_norm = run(model, body)
        assert torch.equal(attn, attn_norm), "attention_output is not post_attention_layernorm's output"
        assert torch.equal(mlp, mlp_norm), "mlp_output is not post_feedforward_layernorm's output"
        assert not torch.equal(mlp, mlp_module), "the MLP's post-norm changes nothing on this checkpoint"

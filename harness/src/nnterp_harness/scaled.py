"""`ResidualScaleChecks`: the contract of a family that scales each contribution and divides the head (Granite).

A family's test class declares it in `CHECKS`. Each sublayer's output is multiplied by
`config.residual_multiplier` before the add, so the contributions are the scaled
outputs, and the logits are the head's output divided by `config.logits_scaling`.
`SCALED_BLOCK` names the block the contributions are checked on.
"""

from __future__ import annotations

import torch

from .helpers import run


class ResidualScaleChecks:
    """Checks for scaled contributions and a divided head; the class it is mixed into is a `FamilySuite`."""

    SCALED_BLOCK = 0

    def test_the_contributions_are_the_scaled_outputs(self, model):
        multiplier = model.config.residual_multiplier
        assert multiplier != 1.0, "the checkpoint leaves residual_multiplier at one"
        index = self.SCALED_BLOCK

        def body(m):
            block = m.layers[index]
            return block.self_attn.output[0], block.self_attn.attention_output, block.mlp.output, block.mlp.mlp_output

        attn_raw, attn, mlp_raw, mlp = run(model, body)
        assert torch.equal(attn, attn_raw * multiplier)
        assert torch.equal(mlp, mlp_raw * multiplier)

    def test_logits_are_the_head_divided_by_logits_scaling(self, model):
        scaling = model.config.logits_scaling
        assert scaling != 1.0, "the checkpoint leaves logits_scaling at one"
        head, logits = run(model, lambda m: (m.lm_head_output, m.logits))
        assert torch.equal(logits, head / scaling)


class LogitScaleChecks:
    """Checks for a head multiplied by `config.logit_scale` (Cohere); the class it is mixed into is a `FamilySuite`."""

    def test_logits_are_the_scaled_head(self, model):
        scale = model.config.logit_scale
        assert scale != 1.0, "the checkpoint leaves logit_scale at one"
        head, logits = run(model, lambda m: (m.lm_head_output, m.logits))
        assert torch.equal(logits, head * scale)

"""`LayerScalarChecks`: the identity of a block that multiplies its whole sum by `layer_scalar` (Gemma 4).

A family's test class declares it in `CHECKS`. Such a block returns
`layer_scalar * (layer_input + attention_output + mlp_output [+ extra terms])`, so the
suite's identity and its write checks take that form here, bit for bit. A family
whose block adds more than the two contributions lists them in `extra_terms`.
"""

from __future__ import annotations

import torch

from .helpers import moved, run


class LayerScalarChecks:
    """The identity and the writes of a block scaled by `layer_scalar`; the class it is mixed into is a `FamilySuite`."""

    def extra_terms(self, block):
        """What the block adds after the MLP's contribution, read in forward order (none by default)."""
        return []

    def terms(self, block):
        return [block.self_attn.attention_output, block.mlp.mlp_output, *self.extra_terms(block)]

    def test_contribution_identity(self, model):
        count = len(model.layers)

        def body(m):
            return [(m.layers[i].layer_input, self.terms(m.layers[i]), m.layers[i].layer_output) for i in range(count)]

        for index, (x, added, out) in enumerate(run(model, body)):
            scalar = model.layers[index]._module.layer_scalar
            assert float(scalar) != 1.0, "the checkpoint leaves layer_scalar at one"
            total = x
            for term in added:
                total = total + term
            assert torch.equal(total * scalar, out), f"block {index}: layer_scalar * (x + terms) is not layer_output"

    def test_boundary_writes_land(self, model, clean):
        def zero(m):
            b = m.layers[0]
            x = b.layer_input
            b.self_attn.attention_output[:] = 0
            return x, self.terms(b), b.layer_output, m.logits

        x, added, out, logits = run(model, zero)
        assert float(added[0].detach().abs().max()) == 0.0 and moved(logits, clean["logits"])
        total = x
        for term in added:
            total = total + term
        assert torch.equal(total * model.layers[0]._module.layer_scalar, out)

        def assign(m):
            m.layers[0].mlp.mlp_output = m.layers[0].mlp.mlp_output * 2
            return m.logits

        assert moved(run(model, assign), clean["logits"]), "an assigned mlp_output did not move the logits"

        def landed(m):
            out = m.layers[0].layer_output * 2
            m.layers[0].layer_output = out
            return out, m.layers[1].layer_input

        written, received = run(model, landed)
        assert torch.equal(written, received), "the next block did not receive the assigned layer_output"

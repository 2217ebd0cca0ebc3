"""`ScaledRoutingChecks`: the contract of a mixture that scales its routed sum after the experts run.

A family whose `ENVOYS` hold a `ScaledRoutedMoe` runs it beside `MixtureChecks`
(`nnterp_harness.contracts`): `routed_output` is the experts module's output times the
factor the config names (`SCALE_KEY`), and the slots still sum to it.
"""

from __future__ import annotations

import torch

from .helpers import run


class ScaledRoutingChecks:
    """Checks for a mixture scaled after its experts; the class it is mixed into is a `FamilySuite`."""

    #: The config key holding the factor the mixture multiplies the experts' output by.
    SCALE_KEY = "routed_scaling_factor"

    def test_routed_output_is_the_experts_sum_times_the_factor(self, model):
        index, _ = self.mixture(model)
        factor = getattr(model.config.get_text_config(), self.SCALE_KEY)
        assert factor != 1.0, "the checkpoint's factor is one, so a missing scale would pass"

        def body(m):
            mixture = m.layers[index].mlp
            return mixture.expert_outputs, mixture.experts.output, mixture.routed_output

        slots, experts, routed = run(model, body)
        assert torch.equal(routed[0], experts * factor)
        assert torch.allclose(slots.sum(2), routed, atol=1e-6)

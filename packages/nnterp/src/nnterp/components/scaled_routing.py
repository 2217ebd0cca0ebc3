"""A mixture that scales the routed experts' sum inside its own forward, after the experts run.

Some mixtures (Laguna, MiniMax-M3) multiply what the experts module returns by a
factor the module holds (`routed_scaling_factor`) and only then add the shared
expert, where DeepSeek's line folds the factor into the routing weights. The values
are served so that the mixture's identities hold with the factor in place:
`routed_output` is the scaled product the forward forms, and `expert_outputs` are the
slots times the factor, so they still sum to `routed_output`, and `routed_output`
plus `shared_expert_output` is the module's output. The routing pair stays what the
experts module receives, unscaled.
"""

from __future__ import annotations

from typing import Any

from .moe import ExpertOutputs, Moe, needs_grouped_experts
from .tokens import TokenEProperty


def routed_scale(envoy: Any) -> float:
    """The factor the mixture module multiplies the routed experts' sum by (its `SCALE` attribute)."""
    return getattr(envoy._module, envoy.SCALE)


def _slots_key(envoy: Any) -> str:
    return envoy.slots_key


class ScaledRoutedMoe(Moe):
    """A mixture whose forward multiplies the experts' output by `SCALE` before adding the shared expert.

    `SCALE` names the module attribute holding the factor, and `SCALED` the binding of
    the module's forward that holds the product; the envoy is `sourced`, since the
    product is read after the experts have run inside the same forward.
    """

    SCALE = "routed_scaling_factor"
    SCALED = "hidden_states_2"
    sourced = True

    @property
    def routed_key(self) -> str:
        """Where the scaled routed sum is read: the product's binding in the module's forward."""
        return f"source.{self.SCALED}.output"

    @TokenEProperty(
        _slots_key,
        description="Each slot's expert output times its weight and the mixture's factor; the slots sum to routed_output",
        unavailable=needs_grouped_experts,
    )
    def expert_outputs(self, value) -> ExpertOutputs:
        return value * routed_scale(self)

    @expert_outputs.postprocess
    def expert_outputs(self, value):
        return value / routed_scale(self)


__all__ = ["ScaledRoutedMoe", "routed_scale"]

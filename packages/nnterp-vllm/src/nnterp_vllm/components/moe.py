"""A mixture of experts on vLLM: the router's logits at the gate, the rest inside the fused MoE kernel.

vLLM's mixtures project the stream to one logit per expert with a gate module and
hand those logits to ``FusedMoE``, one kernel that picks the top experts, weighs them,
runs them and sums them. So the router's logits are a module's output and are served
(a write there decides the routing, as on transformers); the routing weights, the
chosen experts and each slot's output never leave the kernel and are unavailable with
`FUSED_ROUTING` and `FUSED_SLOTS`. The routed sum is the kernel's output where no
shared expert is fused into it (`ROUTED_KEY`), and a shared expert's contribution is
its own module's output where the family names one (`SHARED`).
"""

from __future__ import annotations

from typing import Any

from nnterp.components import Residual, RouterLogits, needs_child, unavailable

from .mlp import RoutedMlp
from .values import Flat

__all__ = ["FUSED_ROUTING", "FUSED_SLOTS", "NO_SHARED", "SHARED_IN_KERNEL", "Moe"]

#: Why the routing is not served.
FUSED_ROUTING = (
    "computed inside vLLM's fused MoE kernel (FusedMoE) from the router's logits and never returned; read "
    "router_logits, or the routing on a StandardizedTransformer"
)
#: Why each slot's output is not served.
FUSED_SLOTS = "vLLM's fused MoE kernel (FusedMoE) sums the experts' outputs inside itself: no tensor holds one slot's"
#: Why `shared_expert_output` is missing on a mixture without a shared expert.
NO_SHARED = "this mixture has no shared expert"
#: Why `routed_output` is missing where vLLM runs the shared expert inside the kernel's call.
SHARED_IN_KERNEL = (
    "vLLM's fused MoE kernel (FusedMoE) runs the shared expert in the same call and returns the sum: no tensor "
    "holds the routed experts' sum alone"
)


def _shared(envoy: Any) -> str | None:
    if envoy.SHARED is None:
        return NO_SHARED
    return needs_child(envoy.SHARED, "mixture")(envoy)


def _routed(envoy: Any) -> str | None:
    if envoy.ROUTED_KEY is None:
        return SHARED_IN_KERNEL
    return None


class Moe(RoutedMlp):
    """A block's mixture on vLLM, `model.layers[i].mlp`: ``gate`` (`GATE`) into ``experts`` (``FusedMoE``).

    `GATE` names the child whose output is the router's logits, `ROUTED_KEY` where
    the routed experts' sum is read (``None`` where the kernel adds a shared expert
    to it), and `SHARED` the shared expert's child (``None`` for none).
    """

    GATE = "gate"
    ROUTED_KEY: str | None = "experts.output"
    SHARED: str | None = None

    @Flat(
        lambda envoy: f"{envoy.GATE}.output",
        description="The router's logits before the scoring; the kernel routes with what is written",
    )
    def router_logits(self, rows) -> RouterLogits:
        return rows

    expert_weights = unavailable(FUSED_ROUTING)
    expert_indices = unavailable(FUSED_ROUTING)
    expert_outputs = unavailable(FUSED_SLOTS)

    @Flat(
        lambda envoy: envoy.ROUTED_KEY or "experts.output",
        description="The routed experts' weighted sum, without the shared expert",
        unavailable=_routed,
    )
    def routed_output(self, rows) -> Residual:
        return rows

    @Flat(
        lambda envoy: f"{envoy.SHARED}.output",
        description="The shared expert's contribution to the module's output",
        unavailable=_shared,
    )
    def shared_expert_output(self, rows) -> Residual:
        return rows

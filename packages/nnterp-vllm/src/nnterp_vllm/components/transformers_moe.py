"""A mixture of experts vLLM runs through its transformers backend with transformers' own routing.

Where vLLM cannot fuse a transformers mixture's router into its kernel, it keeps the
block's forward and the router as transformers wrote them and swaps only the experts
module for a runner over its fused kernel (``experts``, "external routing"): the
router picks the experts and their weights in torch and hands both to the runner as
arguments. So the router's logits are a module's output (`LOGITS`), the routing is
the runner's inputs (`INDICES`, `WEIGHTS`), the routed sum is its output and a shared
expert is a module of its own (`SHARED`); a write to the logits decides the routing
and a write to the routing reaches the kernel. Each slot's output and the experts'
neurons stay inside the kernel. The router and the runner see the stream flat over
tokens, ``[tokens, ...]``; the block's own modules see ``[1, tokens, ...]``.

Where vLLM can fuse the router too ("internal routing"), it rewrites the mixture's
forward to call its runner alone, which calls the router (``gate``) and any shared
experts itself: that is vLLM's own fused mixture (`Moe`) inside a block whose output
carries the batch axis (`BackendFusedMoe`).
"""

from __future__ import annotations

from typing import Any

from nnterp.components import (
    ExpertIndices,
    ExpertWeights,
    Residual,
    RouterLogits,
    Standard,
    needs_child,
    unavailable,
)

from .mlp import ROUTED
from .moe import FUSED_SLOTS, NO_SHARED, Moe
from .transformers_backend import Batched
from .values import Flat

__all__ = ["BackendFusedMoe", "BackendMoe"]


def _shared(envoy: Any) -> str | None:
    if envoy.SHARED is None:
        return NO_SHARED
    return needs_child(envoy.SHARED.split(".")[0], "mixture")(envoy)


class BackendMoe(Standard):
    """A transformers mixture whose routing runs in transformers' code and whose experts run in vLLM's kernel.

    `LOGITS` locates the router's logits (a module's output, ``[tokens, num_experts]``),
    `INDICES` and `WEIGHTS` the runner's positional arguments that carry the routing,
    and `SHARED` the shared expert's output (``None`` for none).
    """

    LOGITS = "gate.output"
    INDICES = 1
    WEIGHTS = 2
    SHARED: str | None = None

    @Batched("output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows

    mlp_activation = unavailable(ROUTED)
    mlp_neurons = unavailable(ROUTED)
    expert_outputs = unavailable(FUSED_SLOTS)

    @Flat(
        lambda envoy: envoy.LOGITS,
        description="The router's logits before the scoring; the router scores what is written",
    )
    def router_logits(self, rows) -> RouterLogits:
        return rows

    @Flat(
        "experts.inputs",
        select=lambda envoy: envoy.WEIGHTS,
        description="The weight of each slot, as the experts' kernel receives it",
    )
    def expert_weights(self, rows) -> ExpertWeights:
        return rows

    @Flat(
        "experts.inputs",
        select=lambda envoy: envoy.INDICES,
        description="The expert each slot sends the token to, as the experts' kernel receives it",
    )
    def expert_indices(self, rows) -> ExpertIndices:
        return rows

    @Flat("experts.output", description="The routed experts' weighted sum, without the shared expert")
    def routed_output(self, rows) -> Residual:
        return rows

    @Batched(
        lambda envoy: envoy.SHARED,
        description="The shared expert's contribution to the module's output",
        unavailable=_shared,
    )
    def shared_expert_output(self, rows) -> Residual:
        return rows


class BackendFusedMoe(Moe):
    """A transformers mixture whose forward vLLM rewrote to call its fused runner: `Moe`'s values, the output batched."""

    @Batched("output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows

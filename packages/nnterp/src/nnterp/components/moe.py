"""A mixture of experts: the router's logits, the routing, the routed experts and the shared expert.

`Moe` is an `Mlp`: `mlp_output` stays what the block adds to the residual stream.
Beside it the module serves the routing as transformers' experts module receives it.
A transformers mixture computes `router(x) -> (logits, weights, indices)` and then
`experts(x, indices, weights)`, both over the stream flattened to tokens; the values
are served per invoke as `[batch, seq, ...]` (`TokenEProperty`).

- `router_logits` is the router's projection (`LOGITS`), before the scoring, so a
  write there decides the routing;
- `expert_indices` and `expert_weights` are the experts call's arguments, so a write
  there is what the experts compute with;
- `expert_outputs` is the per-slot view (`PER_SLOT`) inside transformers' grouped
  experts forward (`DISPATCH` is the call of it), which exists under
  `experts_implementation` `grouped_mm` and `batched_mm` only;
- `routed_output` is the experts module's output, the routed experts' sum;
- `shared_expert_output` is the shared expert's contribution, where a family points
  `SHARED` at it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxtyping import Float, Int
from torch import Tensor

from .attention import module_config
from .eproperty import unavailable
from .layer import Residual
from .mlp import Mlp
from .standard import BATCH, EXPERTS, HIDDEN, SEQ, TOP_K, named_layout
from .tokens import TokenEProperty

#: The router's projection: the call that turns the stream into one logit per expert.
LOGITS = "F_linear_0"
#: The call inside an experts module's forward that runs the chosen implementation
#: (`experts_forward_0` is the binding `experts_forward = ...get_interface(...)`).
DISPATCH = "experts_forward_1"
#: Inside the grouped and batched experts forwards: each slot's weighted output, `[tokens, top_k, hidden_size]`.
PER_SLOT = "weighted_out_view_0"
#: The experts implementations that materialize `PER_SLOT`.
GROUPED = ("grouped_mm", "batched_mm")

#: Why a mixture has no single activation or neuron vector.
ROUTED = "routed experts; read per-expert via the Moe component"
#: Why `shared_expert_output` is missing on a mixture without one.
NO_SHARED = "this mixture has no shared expert"
#: Why `expert_outputs` is missing on experts that loop over the experts in their own forward.
OWN_EXPERT_LOOP = (
    "these experts run their own loop, one expert at a time, and add each expert's weighted rows "
    "into the sum: no tensor holds the slots side by side"
)

# The router's logit per token and expert, before the scoring.
RouterLogits = named_layout("RouterLogits", Float[Tensor, f"{BATCH} {SEQ} {EXPERTS}"])
# One weight per token and slot: what multiplies the slot's expert output.
ExpertWeights = named_layout("ExpertWeights", Float[Tensor, f"{BATCH} {SEQ} {TOP_K}"])
# The expert each slot of each token is sent to.
ExpertIndices = named_layout("ExpertIndices", Int[Tensor, f"{BATCH} {SEQ} {TOP_K}"], index_bound=EXPERTS)
# Each slot's expert output times its weight.
ExpertOutputs = named_layout("ExpertOutputs", Float[Tensor, f"{BATCH} {SEQ} {TOP_K} {HIDDEN}"])


def mixture_reason(envoy: Any) -> str | None:
    """The predicate every mixture value carries: the envoy's own `no_mixture()`."""
    return envoy.no_mixture()


def needs_grouped_experts(envoy: Any) -> str | None:
    """The reason `expert_outputs` is missing when the experts do not run a grouped implementation."""
    reason = envoy.no_mixture()
    if reason:
        return reason
    implementation = envoy.experts_implementation()
    if implementation not in GROUPED:
        return (
            "read inside transformers' grouped_mm / batched_mm experts forward, but this model runs "
            f"'{implementation}'; load with experts_implementation='grouped_mm' (the default) or 'batched_mm'"
        )
    return None


def no_shared_expert(envoy: Any) -> str | None:
    """The reason `shared_expert_output` is missing: no mixture, or a family that points `SHARED` nowhere."""
    reason = envoy.no_mixture()
    if reason:
        return reason
    return None if envoy.SHARED else NO_SHARED


def _attribute(module: Any, *names: str) -> Any:
    for name in names:
        value = getattr(module, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _key(name: str) -> Callable[[Any], str]:
    """A key read off the envoy's class attribute `name`, so a family sets a name rather than a value."""

    def key(envoy: Any) -> str:
        return getattr(envoy, name)

    key.__name__ = f"key_{name.lower()}"
    return key


class Moe(Mlp):
    """A block's mixture of experts, `model.layers[i].mlp`.

    A family subclass names its modules and operations with the class attributes:

    - `SCORING`: how the router scores its logits, ``"softmax"`` (over every
      expert, then the top `top_k`), ``"topk_softmax"`` (the top `top_k` logits,
      then a softmax over them), ``"sigmoid"`` or ``"sparsemixer"`` (Phi-MoE: each
      slot takes the best remaining logit, weighted by a softmax over the logits
      near it);
    - `ROUTER`: the child module that computes the logits, and `LOGITS` the
      operation in its forward whose output they are (`None`: the child's own
      output, for a router that is a bare linear layer);
    - `EXPERTS`: the routed experts' module, called as `experts(x, indices,
      weights)`; `INDICES` and `WEIGHTS` select those arguments;
    - `SHARED`: the path of the shared expert's contribution, `None` without one.

    `no_mixture()` says why this module runs no mixture, or `None`.
    """

    SCORING = "topk_softmax"
    ROUTER = "router"
    LOGITS: str | None = LOGITS
    EXPERTS = "experts"
    INDICES: int | str = 1
    WEIGHTS: int | str = 2
    SHARED: str | None = None

    def no_mixture(self) -> str | None:
        """Why this module runs no mixture of experts, or `None`."""
        return None

    def experts_implementation(self) -> str:
        """The experts implementation the model was loaded with (``"eager"`` when none is set)."""
        config = getattr(getattr(self, self.EXPERTS)._module, "config", None) or module_config(self)
        return getattr(config, "_experts_implementation", None) or "eager"

    # -- keys -----------------------------------------------------------------------

    @property
    def logits_key(self) -> str:
        """Where the router logits are read."""
        if self.LOGITS is None:
            return f"{self.ROUTER}.output"
        return f"{self.ROUTER}.source.{self.LOGITS}.output"

    @property
    def routing_key(self) -> str:
        """Where the experts call's arguments are read."""
        return f"{self.EXPERTS}.inputs"

    @property
    def slots_key(self) -> str:
        """Where each slot's weighted output is read."""
        return f"{self.EXPERTS}.source.{DISPATCH}.source.{PER_SLOT}.output"

    @property
    def routed_key(self) -> str:
        """Where the routed experts' sum is read."""
        return f"{self.EXPERTS}.output"

    @property
    def shared_key(self) -> str | None:
        return self.SHARED

    # -- sizes ----------------------------------------------------------------------

    @property
    def num_experts(self) -> int:
        """The routed experts, read off the experts module (else the router, else the config)."""
        found = _attribute(getattr(self, self.EXPERTS)._module, "num_experts", "num_local_experts")
        if found is None:
            found = _attribute(getattr(self, self.ROUTER)._module, "num_experts", "n_routed_experts")
        if found is None:
            found = _attribute(module_config(self), "num_experts", "num_local_experts", "n_routed_experts")
        return found

    @property
    def top_k(self) -> int:
        """The slots per token, read off the router (else the config)."""
        found = _attribute(getattr(self, self.ROUTER)._module, "top_k", "num_experts_per_tok")
        if found is None:
            found = _attribute(self._module, "top_k", "num_experts_per_tok")
        if found is None:
            found = _attribute(module_config(self), "num_experts_per_tok", "moe_topk", "top_k")
        return found

    @property
    def intermediate_size(self) -> int:
        """One routed expert's width."""
        experts = getattr(self, self.EXPERTS)._module
        found = _attribute(experts, "intermediate_dim", "intermediate_size", "expert_dim")
        if found is None:
            found = _attribute(module_config(self), "moe_intermediate_size", "intermediate_size")
        return found

    # -- values ---------------------------------------------------------------------

    mlp_activation = unavailable(ROUTED)
    mlp_neurons = unavailable(ROUTED)

    @TokenEProperty(
        _key("logits_key"),
        description="The router's logits before the scoring; the router scores what is written",
        unavailable=mixture_reason,
    )
    def router_logits(self, value) -> RouterLogits:
        return value

    @TokenEProperty(
        _key("routing_key"),
        select=lambda envoy: envoy.WEIGHTS,
        description="The weight of each slot, as the experts receive it",
        unavailable=mixture_reason,
    )
    def expert_weights(self, value) -> ExpertWeights:
        return value

    @TokenEProperty(
        _key("routing_key"),
        select=lambda envoy: envoy.INDICES,
        description="The expert each slot sends the token to, as the experts receive it",
        unavailable=mixture_reason,
    )
    def expert_indices(self, value) -> ExpertIndices:
        return value

    @TokenEProperty(
        _key("slots_key"),
        description="Each slot's expert output times its weight; the slots sum to routed_output",
        unavailable=needs_grouped_experts,
    )
    def expert_outputs(self, value) -> ExpertOutputs:
        return value

    @TokenEProperty(
        _key("routed_key"),
        description="The routed experts' weighted sum, without the shared expert",
        unavailable=mixture_reason,
    )
    def routed_output(self, value) -> Residual:
        return value

    @TokenEProperty(
        _key("shared_key"),
        description="The shared expert's contribution to the module's output",
        unavailable=no_shared_expert,
    )
    def shared_expert_output(self, value) -> Residual:
        return value


__all__ = [
    "DISPATCH",
    "GROUPED",
    "LOGITS",
    "NO_SHARED",
    "OWN_EXPERT_LOOP",
    "PER_SLOT",
    "ROUTED",
    "ExpertIndices",
    "ExpertOutputs",
    "ExpertWeights",
    "Moe",
    "RouterLogits",
    "mixture_reason",
    "needs_grouped_experts",
    "no_shared_expert",
]

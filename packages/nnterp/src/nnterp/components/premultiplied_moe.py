"""A mixture that runs every expert on every token, the token first multiplied by its routing score (Llama 4).

The router projects the flattened stream to one logit per expert (`router_logits`),
keeps the top `top_k` logits of each token (`torch.topk`), scatters them into a row of
`-inf` and takes a sigmoid, so each token has one score per expert, zero off the
chosen ones. The mixture then repeats the stream once per expert, multiplies each
copy by that expert's score column and runs the experts on all of it with batched
matrix products; a score of zero gives a zero input, and the gated experts, which
have no biases, give a zero output for it. The routed sum is added in place into the
shared expert's output.

The router returns that score matrix, `[tokens, num_experts]`, and the values are
served off it and where the forward has the rest:

- `expert_weights` and `expert_indices` are the top `top_k` scores of each token's
  row and their columns, in the router's order (the sigmoid keeps the logits'
  order); a written weight is put into the row at its slot's column, and written
  indices move each slot's score to the new column, the rest of the row staying
  zero, so the experts' inputs are multiplied by what is written (a row has one
  score per expert, so indices naming one expert twice keep one of the two). A
  slot whose weight is written to zero ties with the experts the token does not
  use, so a later read of that slot may name any of them, all with weight zero;
- `expert_outputs` is each slot's row of the experts' output: the chosen expert
  run on the token already multiplied by the slot's weight, `expert(weight * x)`,
  not `weight * expert(x)`; the rows sum to `routed_output`. It is read-only, cut
  out of the experts' output with the slot's index;
- `routed_output` is the sum over the experts, before it is added into the shared
  expert's output;
- `shared_expert_output` is a copy of the shared expert's output taken before that
  in-place add; an assignment, or an in-place edit of the copy, replaces it;
- `mlp_output` is the module's output, which the mixture returns flat over tokens.
"""

from __future__ import annotations

from typing import Any

import torch
from nnsight.intervention.interleaver import Mediator

from .eproperty import DerivedEProperty, pick
from .layer import Residual
from .moe import ExpertIndices, ExpertOutputs, ExpertWeights, Moe, mixture_reason
from .tokens import TokenEProperty, token_rows

#: The sum over the experts' outputs, in the mixture's forward.
EXPERT_SUM = "sum_0"


def _scores_key(envoy: Any) -> str:
    return f"{envoy.ROUTER}.output"


def _shared_key(envoy: Any) -> str:
    return envoy.shared_key


def served_rows(envoy: Any, name: str) -> Any:
    """This invoke's rows, `[batch, seq, ...]`, of what value `name` of `envoy` is read from, as the forward has it now."""
    prop = getattr(type(envoy), name)
    location, attribute = prop._resolve(envoy, prop._key(envoy))
    current = pick(attribute, Mediator.value(location), prop._select(envoy))
    return current if prop._batched(current) else token_rows(envoy, current)


def rewrite_if_edited(envoy: Any, name: str, view: Any, raw: Any) -> Any:
    """`raw` where the served `view` of value `name` is unedited, else `raw` rewritten from the edited view."""
    prop = getattr(type(envoy), name)
    if torch.equal(view, prop._preprocess(envoy, raw)):
        return raw
    return prop._postprocess(envoy, view)


def slot_outputs(envoy: Any) -> ExpertOutputs:
    """Each slot's row of the experts' output, `[batch, seq, top_k, hidden_size]`, for this invoke."""
    indices = envoy.expert_indices
    experts = getattr(envoy, envoy.EXPERTS).output
    per_expert = experts.unflatten(0, (envoy.num_experts, -1)).transpose(0, 1)
    rows = token_rows(envoy, per_expert)
    return rows.gather(2, indices.unsqueeze(-1).expand(*indices.shape, rows.shape[-1]))


class PremultipliedMoe(Moe):
    """A mixture whose experts run on every token times its sigmoid routing score (Llama 4's `Llama4TextMoe`).

    The router (`ROUTER`) returns `(scores, logits)`; `EXPERT_SUM` names the sum over
    the experts in the mixture's forward, and `SHARED` the output of the shared
    expert, which the routed sum is added into in place.
    """

    SCORING = "sigmoid"
    LOGITS = "forward_0"
    EXPERT_SUM = EXPERT_SUM
    SHARED = "shared_expert.output"
    # The routed sum is a call inside this forward, read after the experts have run.
    sourced = True

    @property
    def routed_key(self) -> str:
        return f"source.{self.EXPERT_SUM}.output"

    @TokenEProperty(
        _scores_key,
        select=0,
        description="The weight of each slot: its expert's sigmoid score, the factor the token is multiplied by "
        "before that expert",
        unavailable=mixture_reason,
    )
    def expert_weights(self, value) -> ExpertWeights:
        return value.topk(self.top_k, dim=-1).values

    @expert_weights.postprocess
    def expert_weights(self, value):
        scores = served_rows(self, "expert_weights")
        return scores.scatter(-1, scores.topk(self.top_k, dim=-1).indices, value)

    @expert_weights.transform
    def expert_weights(self, view, raw):
        return rewrite_if_edited(self, "expert_weights", view, raw)

    @TokenEProperty(
        _scores_key,
        select=0,
        description="The expert each slot sends the token to: the columns of the token's top scores",
        unavailable=mixture_reason,
    )
    def expert_indices(self, value) -> ExpertIndices:
        return value.topk(self.top_k, dim=-1).indices

    @expert_indices.postprocess
    def expert_indices(self, value):
        scores = served_rows(self, "expert_indices")
        weights = scores.topk(self.top_k, dim=-1).values
        return torch.zeros_like(scores).scatter(-1, value, weights)

    @expert_indices.transform
    def expert_indices(self, view, raw):
        return rewrite_if_edited(self, "expert_indices", view, raw)

    expert_outputs = DerivedEProperty(
        slot_outputs,
        description="Each slot's expert run on the token times the slot's weight, read-only; the slots sum to "
        "routed_output",
        unavailable=mixture_reason,
    )

    @TokenEProperty(
        "output",
        select=0,
        description="What the mixture adds to the residual stream: the shared expert's output with the routed sum "
        "added into it",
    )
    def mlp_output(self, value) -> Residual:
        return value

    @TokenEProperty(
        _shared_key,
        description="The shared expert's contribution to the module's output, copied before the routed sum is added "
        "into it",
        unavailable=mixture_reason,
    )
    def shared_expert_output(self, value) -> Residual:
        return value.clone()

    @shared_expert_output.transform
    def shared_expert_output(self, view, raw):
        return rewrite_if_edited(self, "shared_expert_output", view, raw)


__all__ = ["EXPERT_SUM", "PremultipliedMoe", "rewrite_if_edited", "served_rows", "slot_outputs"]

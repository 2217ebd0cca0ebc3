"""`MixtureChecks`: the contract of a family whose blocks hold a mixture of experts.

A family whose `ENVOYS` hold a `Moe` runs it (`nnterp_harness.contracts`), and
`FamilySuite` fails a class with mixture blocks that does not. The
checks run on the first block whose `mlp` is a `Moe` running a mixture: the routing
pair's shapes, `expert_outputs` summing to `routed_output`, routed plus shared being
the module's output, writes to weights, indices, router logits, the shared expert and
the routed output landing where the spec says, and rows per invoke.
"""

from __future__ import annotations

import re
from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module
import pytest
import torch

import nnterp
from nnterp import Unavailable, axis_size

from .helpers import (
    MOE_VALUES,
    NO_SHARED_EXPERT,
    OTHER_PROMPT,
    PROMPT,
    ROUTED_EXPERTS,
    first_tensor,
    moved,
    run,
    scale_of,
)


class MixtureChecks:
    """Checks for mixture blocks; the class it is mixed into is a `FamilySuite`."""

    def mixture(self, model: Any) -> tuple[int, Any]:
        """The first block whose `mlp` is a `Moe` running a mixture, and that `Moe`; skips on a dense model."""
        moe_class = getattr(nnterp.components, "Moe", None)
        if moe_class is not None:
            for index, block in enumerate(model.layers):
                mlp = getattr(block, "mlp", None)
                if isinstance(mlp, moe_class) and mlp.no_mixture() is None:
                    return index, mlp
        pytest.skip("a dense model has no mixture")

    def moe_available(self, model: Any, index: int, name: str) -> bool:
        """Whether mixture value `name` reads; a value in `MOE_UNAVAILABLE` has its reason asserted."""
        expected = self.MOE_UNAVAILABLE.get(name) or self.MOE_UNAVAILABLE.get(f"mlp.{name}")
        reason = model.support(layer=index).get(f"mlp.{name}")
        if expected is None:
            assert reason is None, f"mlp.{name} on block {index} is unavailable: {reason}"
            return True
        assert reason is not None and expected in reason, f"mlp.{name}: expected {expected!r}, got {reason!r}"
        return False

    def mixture_sum(self, mixture: Any) -> Any:
        """Inside a trace, the tensor that is routed plus shared: the mixture module's output.

        A family whose shared expert is a module of the block beside the mixture
        overrides it with the block's own sum of the two.
        """
        return first_tensor(mixture.output)

    def moe_require(self, model: Any, index: int, *names: str) -> bool:
        """Whether every value of `names` reads on block `index`.

        A value the family declares unavailable (`MOE_UNAVAILABLE`) is read anyway and
        must be refused with its reason: the check a method makes where the mixture lacks
        what the method measures.
        """
        missing = [name for name in names if not self.moe_available(model, index, name)]
        for name in missing:
            expected = self.MOE_UNAVAILABLE.get(name) or self.MOE_UNAVAILABLE.get(f"mlp.{name}")
            with pytest.raises(Unavailable, match=re.escape(expected)):
                self.read_one(model, f"mlp.{name}", index)
        return not missing

    def test_moe_routing_pair_shapes(self, model, clean):
        index, moe = self.mixture(model)
        if not self.moe_require(model, index, "router_logits", "expert_weights", "expert_indices"):
            return
        n = self.n_tokens(clean)
        experts, top_k = axis_size(moe, "num_experts"), axis_size(moe, "top_k")
        logits = self.read_one(model, "mlp.router_logits", index)
        weights = self.read_one(model, "mlp.expert_weights", index)
        indices = self.read_one(model, "mlp.expert_indices", index)
        assert tuple(logits.shape) == (1, n, experts)
        assert tuple(weights.shape) == (1, n, top_k)
        assert tuple(indices.shape) == (1, n, top_k) and indices.dtype == torch.int64
        assert bool(((indices >= 0) & (indices < experts)).all())

    def test_expert_outputs_sum_to_routed_output(self, model, clean):
        index, moe = self.mixture(model)
        if not self.moe_require(model, index, "expert_outputs", "routed_output"):
            return
        slots = self.read_one(model, "mlp.expert_outputs", index)
        routed = self.read_one(model, "mlp.routed_output", index)
        n = self.n_tokens(clean)
        assert tuple(slots.shape) == (1, n, axis_size(moe, "top_k"), model.hidden_size)
        assert torch.allclose(slots.sum(2), routed, atol=1e-4 * scale_of(routed))

    def test_routed_plus_shared_is_the_module_output(self, model):
        index, moe = self.mixture(model)
        if not self.moe_require(model, index, "routed_output"):
            return
        routed = self.read_one(model, "mlp.routed_output", index)
        total = routed
        if self.moe_available(model, index, "shared_expert_output"):
            total = total + self.read_one(model, "mlp.shared_expert_output", index)
        output = run(model, lambda m: self.mixture_sum(m.layers[index].mlp))
        assert torch.allclose(total, output, atol=1e-4 * scale_of(output)), "routed + shared is not the module's output"

    def test_zeroing_a_slot_changes_only_its_tokens(self, model):
        index, moe = self.mixture(model)
        if not self.moe_require(model, index, "expert_weights", "routed_output"):
            return
        clean_routed = self.read_one(model, "mlp.routed_output", index)

        def body(m):
            mixture = m.layers[index].mlp
            weights = mixture.expert_weights.clone()
            weights[:, -1, 0] = 0
            mixture.expert_weights = weights
            return mixture.routed_output

        routed = run(model, body)
        assert torch.equal(routed[:, :-1], clean_routed[:, :-1]), "a zeroed slot changed other tokens"
        assert moved(routed[:, -1], clean_routed[:, -1]), "a zeroed slot did not change its token"

    def test_ablating_an_expert_changes_only_its_tokens(self, model):
        index, moe = self.mixture(model)
        if not self.moe_require(model, index, "expert_weights", "expert_indices", "routed_output"):
            return
        indices = self.read_one(model, "mlp.expert_indices", index)
        clean_routed = self.read_one(model, "mlp.routed_output", index)
        expert = int(indices[0, -1, 0])

        def body(m):
            mixture = m.layers[index].mlp
            # The indices first: a family may bind them before the weights (Doge), never after.
            chosen = mixture.expert_indices == expert
            mixture.expert_weights = mixture.expert_weights.masked_fill(chosen, 0)
            return mixture.routed_output

        routed = run(model, body)
        touched = (indices[0] == expert).any(-1)
        for position in range(indices.shape[1]):
            if bool(touched[position]):
                assert moved(routed[0, position], clean_routed[0, position]), f"token {position} kept expert {expert}"
            else:
                assert torch.equal(routed[0, position], clean_routed[0, position]), f"token {position} changed"

    def test_rerouting_a_slot_matches_a_hand_computation(self, model):
        index, moe = self.mixture(model)
        if not self.moe_require(model, index, "expert_weights", "expert_indices", "expert_outputs"):
            return
        weights = self.read_one(model, "mlp.expert_weights", index)
        indices = self.read_one(model, "mlp.expert_indices", index)
        experts = axis_size(moe, "num_experts")
        current = set(indices[0, -1].tolist())
        target = next(e for e in range(experts) if e not in current)

        def rerouted(unit: bool):
            def body(m):
                mixture = m.layers[index].mlp
                new = mixture.expert_indices.clone()
                new[:, -1, 0] = target
                mixture.expert_indices = new
                if unit:
                    w = mixture.expert_weights.clone()
                    w[:, -1, 0] = 1
                    mixture.expert_weights = w
                    return mixture.expert_weights, mixture.expert_outputs
                return mixture.expert_weights, mixture.expert_outputs

            return run(model, body)

        kept_weights, slots = rerouted(unit=False)
        _, unit_slots = rerouted(unit=True)
        assert torch.equal(kept_weights, weights), "rerouting renormalized the weights"
        # The slot computes weight * expert_target(x): the unit-weight run gives expert_target(x).
        expected = weights[0, -1, 0] * unit_slots[0, -1, 0]
        assert torch.allclose(slots[0, -1, 0], expected, atol=1e-4 * scale_of(expected))

    def test_writing_router_logits_decides_the_routing(self, model):
        index, moe = self.mixture(model)
        if not self.moe_require(model, index, "router_logits", "expert_indices"):
            return
        experts, top_k = axis_size(moe, "num_experts"), axis_size(moe, "top_k")
        chosen = [1, 0][: min(2, top_k)] if experts > 1 else [0]

        def body(m):
            mixture = m.layers[index].mlp
            forced = torch.full((experts,), -10.0)
            forced[chosen] = 10.0
            mixture.router_logits[:, -1] = forced.to(mixture.router_logits.dtype)
            return mixture.expert_indices

        indices = run(model, body)
        assert set(indices[0, -1, : len(chosen)].tolist()) == set(chosen)

    def test_moe_rows_per_invoke(self, model):
        index, moe = self.mixture(model)
        if not self.moe_require(model, index, "router_logits", "expert_weights"):
            return
        box: list[Any] = []
        with model.trace() as tracer:
            with tracer.invoke(PROMPT):
                box.append(model.layers[index].mlp.router_logits)
            with tracer.invoke(OTHER_PROMPT):
                box.append(model.layers[index].mlp.router_logits)
        first, second = box
        assert first.shape[0] == 1 and second.shape[0] == 1, "an invoke was served another invoke's rows"
        assert first.shape[-1] == second.shape[-1] == axis_size(moe, "num_experts")

    def test_moe_support_lists_the_mixture_values(self, model):
        index, moe = self.mixture(model)
        support = model.support(layer=index)
        for name in MOE_VALUES + ("mlp_output",):
            assert f"mlp.{name}" in support, f"support() does not list mlp.{name}"
            self.moe_available(model, index, name)
        for name in ("mlp_activation", "mlp_neurons"):
            reason = support.get(f"mlp.{name}")
            assert reason is not None and "routed experts" in reason, f"mlp.{name}: {reason!r}"

    def test_expert_weights_are_the_routing_weights(self, model):
        index, moe = self.mixture(model)
        if not self.moe_require(model, index, "expert_weights", "expert_outputs"):
            return
        weights = self.read_one(model, "mlp.expert_weights", index)
        slots = self.read_one(model, "mlp.expert_outputs", index)
        assert bool((weights >= 0).all())

        def body(m):
            mixture = m.layers[index].mlp
            mixture.expert_weights = mixture.expert_weights * 2
            return mixture.expert_outputs

        doubled = run(model, body)
        assert torch.allclose(doubled, 2 * slots, atol=1e-4 * scale_of(slots)), "the weights do not multiply the slots"

    def test_writes_to_the_shared_expert_land(self, model):
        index, moe = self.mixture(model)
        if not self.moe_require(model, index, "routed_output"):
            return
        if not self.moe_available(model, index, "shared_expert_output"):
            # Without a shared expert, a read and a write both refuse with the reason, before the run.
            reason = model.support(layer=index)["mlp.shared_expert_output"]
            with pytest.raises(Unavailable, match=re.escape(reason)):
                with model.trace(PROMPT):
                    moe.shared_expert_output.save()
            with pytest.raises(Unavailable, match=re.escape(reason)):
                with model.trace(PROMPT):
                    moe.shared_expert_output = torch.zeros(1)
            return
        routed = self.read_one(model, "mlp.routed_output", index)

        def body(m):
            mixture = m.layers[index].mlp
            mixture.shared_expert_output = mixture.shared_expert_output * 0
            return self.mixture_sum(mixture)

        output = run(model, body)
        assert torch.allclose(output, routed, atol=1e-4 * scale_of(routed)), "a zeroed shared expert did not land"

    def test_routed_output_write_lands(self, model, clean):
        index, moe = self.mixture(model)
        if not self.moe_require(model, index, "routed_output"):
            return
        shared = None
        if self.moe_available(model, index, "shared_expert_output"):
            shared = self.read_one(model, "mlp.shared_expert_output", index)

        def body(m):
            mixture = m.layers[index].mlp
            mixture.routed_output = mixture.routed_output * 0
            return self.mixture_sum(mixture), m.logits

        output, logits = run(model, body)
        expected = torch.zeros_like(output) if shared is None else shared
        assert torch.allclose(output, expected, atol=1e-4 * scale_of(expected)), "a zeroed routed output did not land"
        assert moved(logits, clean["logits"])


__all__ = ["MOE_VALUES", "NO_SHARED_EXPERT", "ROUTED_EXPERTS", "MixtureChecks"]

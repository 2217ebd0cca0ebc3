"""`CallStateChecks`: `RecurrentChecks` for a mixer that serves its state after a call, never after each token.

A family's test class declares it in `CHECKS` (``CHECKS = (CallStateChecks,)``), in place
of the `RecurrentChecks` its envoys bring, for a mixer whose values are the arguments and results of a call no routing changes
(RWKV's wkv function, xLSTM's backend module, Zamba's per-head loop), and set
`TOKEN_STATE` to a phrase of the mixer's reason for refusing `state` and `states`. The
per-token checks of `RecurrentChecks` are restated:

- `state`, `states`, `state_after(t)` and `set_state_after(t, value)` are refused with
  that reason, before and after `route_kernels(family, "torch")`;
- under `generate`, each step moves `state_output`;
- a compiled kernel behind the kernel names leaves every value of `BOUNDARY_VALUES`
  available, since none is read inside a kernel.
"""

from __future__ import annotations

from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module
import pytest
import torch

import nnterp
from nnterp import route_kernels

from .helpers import PROMPT
from .recurrent import RecurrentChecks


class CallStateChecks(RecurrentChecks):
    """Checks for a mixer with no state per token; the class it is mixed into is a `FamilySuite`."""

    #: A phrase of the mixer's reason for refusing `state` and `states`.
    TOKEN_STATE = ""
    #: Mixer values that stay available whatever kernel the kernel names dispatch to.
    BOUNDARY_VALUES = ("attention_values", "state_output", "attention_output")

    def test_unrouted_state_reports_routing(self, model):
        index, _ = self.mixer(model)
        assert self.TOKEN_STATE, f"{type(self).__name__} sets no TOKEN_STATE"
        for name in ("state", "states"):
            reason = model.support(layer=index)[f"linear_attn.{name}"]
            assert reason is not None and self.TOKEN_STATE in reason, reason
        with pytest.raises(nnterp.Unavailable, match=self.TOKEN_STATE):
            with model.trace(PROMPT):
                model.layers[index].linear_attn.states  # noqa: B018

    def _refuses_the_state_per_token(self, checkpoint: Any) -> None:
        routed = self.routed_model(checkpoint)
        try:
            index, _ = self.mixer(routed)
            reason = routed.support(layer=index)["linear_attn.states"]
            assert reason is not None and self.TOKEN_STATE in reason, "routing gave a state per token"
            for read in (
                lambda mix: mix.state_after(0),
                lambda mix: mix.set_state_after(0, torch.zeros(1)),
                lambda mix: mix.states,
            ):
                with pytest.raises(nnterp.Unavailable, match=self.TOKEN_STATE):
                    with routed.trace(PROMPT):
                        read(routed.layers[index].linear_attn)
        finally:
            route_kernels(self.FAMILY, "default")

    def test_states_are_the_recurrence(self, checkpoint):
        self._refuses_the_state_per_token(checkpoint)

    def test_state_after_and_set_state_after(self, checkpoint):
        self._refuses_the_state_per_token(checkpoint)

    def test_states_per_generate_step(self, model):
        index, _ = self.mixer(model)
        outs: list[Any] = []
        with model.generate(PROMPT, max_new_tokens=3, min_new_tokens=3, do_sample=False) as tracer:
            for _ in tracer.iter[:3]:
                outs.append(model.layers[index].linear_attn.state_output)
        assert len(outs) == 3, "the decode steps were not reached"
        for step in (1, 2):
            assert not torch.equal(outs[step], outs[step - 1]), f"step {step} left the state as it found it"

    def test_an_optimized_kernel_is_refused(self, model, monkeypatch):
        index, mix = self.mixer(model)
        from nnterp.components.recurrent import base_name, modeling_module

        module = modeling_module(mix)
        for label in type(mix).kernel_labels():
            name = base_name(label)
            original = getattr(module, name)

            def dispatcher(torch_function, implementation):
                def wrapped(*args, **kwargs):
                    assert torch_function is not implementation
                    return implementation(*args, **kwargs)

                return wrapped

            monkeypatch.setattr(module, name, dispatcher(original, lambda *args, **kwargs: None))
        for value in self.BOUNDARY_VALUES:
            assert model.support(layer=index)[f"linear_attn.{value}"] is None, value

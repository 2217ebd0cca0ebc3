"""`ShortConvolutionChecks`: `RecurrentChecks` for a mixer whose state is a window of its last inputs (LFM2's `conv`).

A family whose `ENVOYS` hold a `ShortConvolution` runs it in place of `RecurrentChecks`
(`nnterp_harness.contracts`). A short convolution serves `attention_output`, `state_input` and a
read-only `state_output`, and reports the attention terms, the gates and the state
per token unavailable. The checks that hold for every recurrent mixer (the state
handed between `generate` steps, a written `state_input` landing, the block kinds,
the kernel routing) run as `RecurrentChecks` states them; the ones that read
queries, gates or a per-token state are restated here for the window:

- `state_output` after a prompt is the last `conv_width` columns of `B * x`, computed
  by hand from the mixer's own projection, and refuses assignment;
- the mixer's unavailable values give the short convolution's reasons, routed or not;
- an edit of the last token's contribution leaves the earlier tokens alone.
"""

from __future__ import annotations

from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module
import pytest
import torch

import nnterp
from nnterp import axis_size, route_kernels
from nnterp.components.short_convolution import NO_TOKEN_STATE, ShortConvolution

from .family import FamilyContract
from .helpers import PROMPT, moved, rows, run, scale_of
from .recurrent import RecurrentChecks

#: LFM2's native paths (its final norm is `embedding_norm`), which LFM2-MoE keeps.
LFM2_ROWS = rows(
    "model",
    "layers",
    "embed_tokens",
    "embedding_norm",
    attn=None,
    ln1="operator_norm",
    ln2="ffn_norm",
    mlp="feed_forward",
)

#: The mixer values a short convolution lacks, with a word of each reason.
WINDOW_UNAVAILABLE = {
    "linear_attn.attention_queries": "no queries, keys or values",
    "linear_attn.attention_keys": "no queries, keys or values",
    "linear_attn.attention_values": "no queries, keys or values",
    "linear_attn.decays": "no decay or write strength",
    "linear_attn.betas": "no decay or write strength",
    "linear_attn.attention_head_outputs": "no heads",
    "linear_attn.state": "window of its last inputs",
    "linear_attn.states": "window of its last inputs",
}


class ShortConvolutionChecks(RecurrentChecks):
    """Checks for short-convolution mixer blocks; the class it is mixed into is a `FamilySuite`."""

    def window_by_hand(self, model: Any, index: int) -> torch.Tensor:
        """The window after the prompt: the last `conv_width` columns of `B * x`, from the mixer's input projection."""
        mix = model.layers[index].linear_attn
        projection = mix.in_proj._module
        normed = run(model, lambda m: m.layers[index].linear_attn.input)
        with torch.no_grad():
            b, _, x = projection(normed).transpose(-1, -2).chunk(3, dim=-2)
        return (b * x)[..., -axis_size(mix, "conv_width") :]

    # == the boundaries around the mixer =========================================================

    def test_sublayer_interiors(self, model, clean):
        if self.sublayers_besides_mixers(model):
            FamilyContract.test_sublayer_interiors(self, model, clean)
        index, _ = self.mixer(model)
        self._write_moves_logits(model, clean, "linear_attn.attention_output", index)

    # == the kernel values =======================================================================

    def test_kernel_values_shapes(self, model, clean):
        index, mix = self.mixer(model)
        assert isinstance(mix, ShortConvolution)
        n = self.n_tokens(clean)
        read = self.read_mixer(model, index, ("state_input", "state_output", "attention_output"))
        assert read["state_input"] is None, "a fresh prompt starts from no window"
        assert read["attention_output"].shape == (1, n, model.hidden_size)
        channels, width = axis_size(mix, "channels"), axis_size(mix, "conv_width")
        assert read["state_output"].shape == (1, channels, width)
        by_hand = self.window_by_hand(model, index)
        assert torch.equal(read["state_output"], by_hand), "state_output is not the last inputs of the convolution"

    def test_kernel_value_writes_land(self, model, clean):
        index, _ = self.mixer(model)
        with pytest.raises(AttributeError, match="state_output is derived and read-only"):
            run(model, lambda m: setattr(m.layers[index].linear_attn, "state_output", torch.zeros(1)))
        for key, word in WINDOW_UNAVAILABLE.items():
            reason = model.support(layer=index)[key]
            assert reason is not None and word in reason, f"{key}: {reason!r}"

    def test_last_token_edit_is_causal(self, model, clean):
        index, _ = self.mixer(model)

        def edit(m):
            mix = m.layers[index].linear_attn
            out = mix.attention_output.clone()
            out[:, -1] = 0
            mix.attention_output = out
            return m.logits

        edited = run(model, edit)
        atol = 1e-6 * scale_of(clean["logits"])
        assert torch.allclose(edited[:, :-1], clean["logits"][:, :-1], rtol=0, atol=atol), (
            "an edit of the last token moved an earlier one"
        )
        assert moved(edited[:, -1], clean["logits"][:, -1]), "an edit of the last token did not move it"

    # == the state per token =====================================================================

    def test_unrouted_state_reports_routing(self, model):
        index, _ = self.mixer(model)
        for name in ("state", "states"):
            assert model.support(layer=index)[f"linear_attn.{name}"] == NO_TOKEN_STATE
        with pytest.raises(nnterp.Unavailable, match="window"):
            with model.trace(PROMPT):
                model.layers[index].linear_attn.states  # noqa: B018

    def _refuses_the_state_per_token(self, checkpoint):
        routed = self.routed_model(checkpoint)
        try:
            index, _ = self.mixer(routed)
            assert routed.support(layer=index)["linear_attn.states"] == NO_TOKEN_STATE, "routing gave a window state"
            for read in (
                lambda mix: mix.state_after(0),
                lambda mix: mix.set_state_after(0, torch.zeros(1)),
                lambda mix: mix.states,
            ):
                with pytest.raises(nnterp.Unavailable, match="window"):
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
        windows: list[Any] = []
        with model.generate(PROMPT, max_new_tokens=3, min_new_tokens=3, do_sample=False) as tracer:
            for _ in tracer.iter[:3]:
                windows.append(model.layers[index].linear_attn.state_output)
        for step in (1, 2):
            # One new column enters the window per step, and the older ones shift left by one.
            assert torch.equal(windows[step][..., :-1], windows[step - 1][..., 1:]), f"step {step} did not shift"

    def test_an_optimized_kernel_is_refused(self, model, monkeypatch):
        index, mix = self.mixer(model)
        from nnterp.components.recurrent import base_name, modeling_module

        module = modeling_module(mix)
        name = base_name(type(mix).CHUNK_KERNEL)
        original = getattr(module, name)

        def dispatcher(torch_function, implementation, package):
            def wrapped(*args, **kwargs):
                assert torch_function is not implementation, package
                return implementation(*args, **kwargs)

            return wrapped

        monkeypatch.setattr(module, name, dispatcher(original, lambda *args, **kwargs: None, "causal_conv1d"))
        for value in ("state_input", "state_output"):
            reason = model.support(layer=index)[f"linear_attn.{value}"]
            assert reason is not None and "causal_conv1d" in reason and "route_kernels" in reason
        assert model.support(layer=index)["linear_attn.attention_output"] is None

"""RecurrentGemma (`RecurrentGemmaForCausalLM`), end to end: an RG-LRU block, a local-attention block, an RG-LRU block.

The RG-LRU's values are read at its unit's scan, the same pure-torch call on a prompt
and a decode step, so `RecurrentChecks`' kernel and per-token checks are restated for
a diagonal recurrence: the state after every token is the scan's output, computed here
by hand from the served decays and written inputs.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

import nnterp
from nnterp import axis_size
from nnterp.components.rg_lru import NO_TOKEN_STATE, RgLru
from nnterp_harness.release import family
from nnterp_harness.suite import PROMPT, FamilySuite, moved, perturbed, rows, run

FAMILY = family("recurrent_gemma")

#: The mixer values an RG-LRU lacks, with a word of each reason.
LRU_UNAVAILABLE = {
    "linear_attn.attention_queries": "no queries or keys",
    "linear_attn.attention_keys": "no queries or keys",
    "linear_attn.betas": "folds its input gate",
    "linear_attn.state": "served whole as states",
}


def lru_by_hand(values, decays, initial=None):
    """`h_t = exp(decay_t) * h_{t-1} + x_t` from `initial` (zeros when `None`), every token's `h`."""
    state = torch.zeros(values[:, 0].shape, dtype=torch.float64) if initial is None else initial.double()
    found = []
    for t in range(values.shape[1]):
        state = decays[:, t].double().exp() * state + values[:, t].double()
        found.append(state)
    return torch.stack(found, dim=1)


class TestRecurrentGemma(FamilySuite):
    CHECKPOINT = "recurrent_gemma"
    FAMILY = FAMILY
    NATIVE = rows(
        "model",
        "layers",
        "embed_tokens",
        "final_norm",
        attn=None,
        ln1="temporal_pre_norm",
        ln2="channel_pre_norm",
        mlp="mlp_block",
    )
    EXPECTED_UNAVAILABLE = LRU_UNAVAILABLE
    # transformers 5.20's generate hands this stateful model the new token's mask alone (5.17 and 5.24 the whole
    # sequence's); the forward builds the window mask from its cache and positions either way.
    DECODE_MASK_COVERS_CACHE = False

    def test_block_kinds_follow_the_config(self, model):
        kinds = model.config.layers_block_type
        assert len(set(kinds)) == 2, kinds
        for index, kind in enumerate(kinds):
            block = model.layers[index]
            if kind in ("recurrent", "linear_attention"):
                assert isinstance(block.linear_attn, RgLru) and block.linear_attn.path.endswith("temporal_block")
            else:
                assert block.self_attn.path.endswith("temporal_block")

    # == the kernel values =======================================================================

    def test_kernel_values_shapes(self, model, clean):
        index, mix = self.mixer(model)
        n = self.n_tokens(clean)
        names = ("attention_values", "decays", "state_input", "attention_head_outputs", "state_output")
        names += ("attention_output",)
        read = self.read_mixer(model, index, names)
        channels = axis_size(mix, "channels")
        assert read["state_input"] is None, "a fresh prompt starts from a state"
        for name in ("attention_values", "decays", "attention_head_outputs"):
            assert read[name].shape == (1, n, channels), name
        assert bool((read["decays"] < 0).all())
        assert read["state_output"].shape == (1, channels)
        assert read["attention_output"].shape == (1, n, model.hidden_size)
        by_hand = lru_by_hand(read["attention_values"], read["decays"])
        # Position 0 starts afresh: the scan zeroes its decay.
        assert torch.allclose(read["attention_head_outputs"].double(), by_hand, rtol=1e-5, atol=1e-6)
        assert torch.allclose(read["state_output"].double(), by_hand[:, -1], rtol=1e-5, atol=1e-6)

    def test_kernel_value_writes_land(self, model, clean):
        index, _ = self.mixer(model)
        writes = {
            "attention_values": perturbed,
            "decays": lambda value: value * 2,
            "attention_head_outputs": perturbed,
        }
        for name, write in writes.items():

            def assign(m, name=name, write=write):
                mix = m.layers[index].linear_attn
                setattr(mix, name, write(getattr(mix, name)))
                return m.logits

            assert moved(run(model, assign), clean["logits"]), f"assigning {name} did not move the logits"
        for name in ("attention_values", "attention_head_outputs"):

            def in_place(m, name=name):
                value = getattr(m.layers[index].linear_attn, name)
                value[:] = value * 0.5
                return m.logits

            assert moved(run(model, in_place), clean["logits"]), f"an in-place edit of {name} did not land"

        def longer_memory(m):
            mix = m.layers[index].linear_attn
            values, decays = mix.attention_values, mix.decays
            mix.decays = decays * 0.5
            return values, decays, mix.attention_head_outputs

        values, decays, outputs = run(model, longer_memory)
        assert torch.allclose(outputs.double(), lru_by_hand(values, decays * 0.5), rtol=1e-5, atol=1e-6), (
            "a written decay did not reach the scan"
        )
        with pytest.raises(ValueError, match="position 0"):
            run(model, lambda m: setattr(m.layers[index].linear_attn, "state_input", torch.zeros(1, 64)))
        for key, word in LRU_UNAVAILABLE.items():
            reason = model.support(layer=index)[key]
            assert reason is not None and word in reason, f"{key}: {reason!r}"

    def test_decode_step_continues_the_state(self, model):
        index, _ = self.mixer(model)
        read: list[Any] = []
        with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2, do_sample=False) as tracer:
            for _ in tracer.iter[1:2]:
                mix = model.layers[index].linear_attn
                read.append(mix.attention_values)
                read.append(mix.decays)
                read.append(mix.state_input)
                read.append(mix.attention_head_outputs)
                read.append(mix.state_output)
        values, decays, initial, outputs, state = read
        assert values.shape[1] == 1
        by_hand = lru_by_hand(values, decays, initial)
        assert torch.allclose(outputs.double(), by_hand, rtol=1e-5, atol=1e-6), "the decode step ignores the state"
        assert torch.allclose(state.double(), by_hand[:, -1], rtol=1e-5, atol=1e-6)

    # == the state per token =====================================================================

    def test_unrouted_state_reports_routing(self, model):
        index, _ = self.mixer(model)
        assert model.support(layer=index)["linear_attn.state"] == NO_TOKEN_STATE
        assert model.support(layer=index)["linear_attn.states"] is None, "the scan's output is every token's state"
        with pytest.raises(nnterp.Unavailable, match="served whole as states"):
            with model.trace(PROMPT):
                model.layers[index].linear_attn.state  # noqa: B018

    def test_states_are_the_recurrence(self, model):
        index, _ = self.mixer(model)
        read = self.read_mixer(model, index, ("attention_values", "decays", "states", "state_output"))
        states = read["states"]
        assert states.shape[1] == read["attention_values"].shape[1]
        assert torch.equal(states[:, -1], read["state_output"]), "the last state is not state_output"
        by_hand = lru_by_hand(read["attention_values"], read["decays"])
        assert torch.allclose(by_hand, states.double(), rtol=1e-5, atol=1e-6), "states differ from the recurrence"
        with pytest.raises(AttributeError, match="read-only"):
            with model.trace(PROMPT):
                model.layers[index].linear_attn.states = states

    def test_state_after_and_set_state_after(self, model):
        index, _ = self.mixer(model)
        t = 2
        states, before = run(
            model, lambda m: (m.layers[index].linear_attn.states, m.layers[index].linear_attn.state_after(t))
        )
        assert torch.equal(before, states[:, t]), "state_after(t) is not states[:, t]"
        with pytest.raises(IndexError):
            run(model, lambda m: m.layers[index].linear_attn.state_after(states.shape[1]))
        with pytest.raises(nnterp.Unavailable, match="state_input"):
            with model.trace(PROMPT):
                model.layers[index].linear_attn.set_state_after(t, states[:, t])

    def test_an_optimized_kernel_is_refused(self, model):
        # The scan is a method of the unit with one pure-torch body: nothing dispatches it elsewhere.
        index, mix = self.mixer(model)
        assert type(mix).kernel_labels() == ()
        for value in ("attention_values", "state_output", "states", "attention_output"):
            assert model.support(layer=index)[f"linear_attn.{value}"] is None, value

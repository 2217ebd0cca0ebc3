"""Zamba (`ZambaForCausalLM`), end to end: a Mamba block, then two hybrid blocks sharing one transformer block.

The mixer runs one selective scan per head, and its values are read around that loop in
the forward, where every head's tensor is bound: `RecurrentChecks` runs as stated where
its reads follow that order, and the kernel and per-token state checks are restated with
the state after the call computed by hand, head by head, from the served values.
"""

from __future__ import annotations

from typing import Any

import torch

from nnterp import axis_size
from nnterp_harness.call_state import CallStateChecks
from nnterp_harness.recurrent import MIXER_ONLY
from nnterp_harness.release import family
from nnterp_harness.shared_block import SharedTransformerChecks
from nnterp_harness.suite import PROMPT, FamilySuite, child_names, rows

FAMILY = family("zamba")

NO_STATE_PER_TOKEN = {
    "linear_attn.state": "one selective scan per head",
    "linear_attn.states": "one selective scan per head",
}


def headed_scan_states(keys, values, decays, betas):
    """The state after the last token, every channel reading its own head's `B`, from zeros."""
    batch, seq, channels, state_dim = decays.shape
    keys = keys.float().repeat_interleave(channels // keys.shape[2], dim=2)
    state = torch.zeros(batch, channels, state_dim)
    for t in range(seq):
        state = decays[:, t].float().exp() * state + betas[:, t, :, None].float() * keys[:, t] * values[:, t, :, None]
    return state


class TestZamba(FamilySuite):
    CHECKS = (SharedTransformerChecks, CallStateChecks)
    CHECKPOINT = "zamba"
    SHARED = "shared_transf"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "final_layernorm", attn=None, ln1=None, ln2=None, mlp=None)
    EXPECTED_UNAVAILABLE = {**NO_STATE_PER_TOKEN, **MIXER_ONLY}
    TOKEN_STATE = "one selective scan per head"
    BOUNDARY_VALUES = ("attention_values", "attention_queries", "state_output", "attention_output")
    # Every block holds the mixer; the hybrid blocks run an attention before it.
    HYBRID = False
    MLP_NORM = None
    DECODE_MASK_COVERS_CACHE = False

    def contribution_sources(self, block):
        # The mixer's output is all a block adds: the shared transformer feeds the mixer's input.
        return [(child_names(block)["linear_attn"], "attention_output")]

    def sublayers_besides_mixers(self, model):
        # The attention reads the shared block's own norm of a wider input, and no block has an MLP of its own.
        return False

    def in_place_values(self, mix):
        return ("attention_values", "attention_head_outputs")

    # == the kernel values =======================================================================

    def test_kernel_values_shapes(self, model, clean):
        index, mix = self.mixer(model)
        n = self.n_tokens(clean)
        # Forward order: x is bound before the split that makes B and C from it.
        names = ("attention_values", "attention_keys", "attention_queries", "betas", "decays", "state_input")
        names += ("attention_head_outputs", "state_output", "attention_output")
        read = self.read_mixer(model, index, names)
        channels, state_dim, heads = (axis_size(mix, axis) for axis in ("channels", "state_dim", "groups"))
        assert heads > 1, "the tiny checkpoint runs one head: the per-head loop goes unchecked"
        assert read["state_input"] is None, "a fresh prompt starts from a state"
        assert read["attention_queries"].shape == read["attention_keys"].shape == (1, n, heads, state_dim)
        assert read["attention_values"].shape == read["attention_head_outputs"].shape == (1, n, channels)
        assert read["betas"].shape == (1, n, channels) and bool((read["betas"] > 0).all())
        assert read["decays"].shape == (1, n, channels, state_dim) and bool((read["decays"] <= 0).all())
        assert read["state_output"].shape == (1, channels, state_dim)
        assert read["attention_output"].shape == (1, n, model.hidden_size)
        by_hand = headed_scan_states(read["attention_keys"], read["attention_values"], read["decays"], read["betas"])
        scale = max(1.0, float(by_hand.abs().max()))
        assert torch.allclose(by_hand, read["state_output"].float(), rtol=0, atol=1e-5 * scale), (
            f"the state differs from the scan by {float((by_hand - read['state_output']).abs().max())}"
        )

    # == the state per token =====================================================================

    def test_states_per_generate_step(self, model):
        index, _ = self.mixer(model)
        read: list[Any] = []
        with model.generate(PROMPT, max_new_tokens=3, min_new_tokens=3, do_sample=False) as tracer:
            for _ in tracer.iter[1:3]:
                mix = model.layers[index].linear_attn
                read.append(mix.attention_values)
                read.append(mix.attention_keys)
                read.append(mix.betas)
                read.append(mix.decays)
                read.append(mix.state_input)
                read.append(mix.state_output)
        for step in range(2):
            values, keys, betas, decays, initial, final = read[6 * step : 6 * step + 6]
            assert values.shape[1] == 1
            heads = keys.shape[2]
            written = betas[:, 0, :, None] * keys[:, 0].repeat_interleave(values.shape[-1] // heads, dim=1)
            by_hand = decays[:, 0].exp() * initial + written * values[:, 0, :, None]
            assert torch.allclose(by_hand, final, rtol=0, atol=1e-5 * max(1.0, float(final.abs().max()))), (
                f"decode step {step + 1}'s state is not the update of the state it started from"
            )

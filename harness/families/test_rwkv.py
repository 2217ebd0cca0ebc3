"""RWKV-4 (`RwkvForCausalLM`), end to end: three time-mix and channel-mix blocks, the stream halved after block 1.

The time-mix is a recurrent mixer whose values are the arguments and results of one
kernel call, the same function on a prompt and a decode step, so `RecurrentChecks`'
kernel checks are restated here for RWKV's terms: `wkv` and the state after the call
are computed by hand from the served keys, values and decays and the module's bonus,
and the values RWKV lacks (queries, write strengths, the state per token) report why.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

from nnterp import axis_size
from nnterp.components.rwkv import TimeMix
from nnterp_harness.call_state import CallStateChecks
from nnterp_harness.release import family
from nnterp_harness.suite import PROMPT, FamilySuite, moved, perturbed, rows, run

FAMILY = family("rwkv")

#: The time-mix values RWKV lacks, with a word of each reason.
WKV_UNAVAILABLE = {
    "linear_attn.attention_queries": "no queries",
    "linear_attn.betas": "no write strength",
    "linear_attn.state": "three separate tensors",
    "linear_attn.states": "three separate tensors",
}


def wkv_by_hand(keys, values, decays, bonus, initial=None):
    """Every channel's weighted average of the values, and the (numerator, denominator) after the last token.

    Token `i` weighs `exp(k_i + (t - 1 - i) * decay)` in the output at a later token `t`
    and `exp(k_t + u)` at its own; the sums are kept in float64 without the kernel's
    running exponent.
    """
    keys, values, decays, bonus = (x.double() for x in (keys, values, decays, bonus))
    batch, seq, channels = keys.shape
    numerator = torch.zeros(batch, channels, dtype=torch.float64)
    denominator = torch.zeros(batch, channels, dtype=torch.float64)
    if initial is not None:
        scale = initial[..., 2].double().exp()
        numerator, denominator = initial[..., 0].double() * scale, initial[..., 1].double() * scale
    outputs = []
    for t in range(seq):
        now = (keys[:, t] + bonus).exp()
        outputs.append((numerator + now * values[:, t]) / (denominator + now))
        weight = keys[:, t].exp()
        numerator = numerator * decays.exp() + weight * values[:, t]
        denominator = denominator * decays.exp() + weight
    return torch.stack(outputs, dim=1), numerator, denominator


class TestRwkv(FamilySuite):
    CHECKS = (CallStateChecks,)
    CHECKPOINT = "rwkv"
    FAMILY = FAMILY
    NATIVE = {
        **rows(
            "rwkv", "blocks", "embeddings", "ln_out", attn=None, ln1="ln1", ln2="ln2", mlp="feed_forward", head="head"
        ),
        "layers.0.linear_attn": "rwkv.blocks.0.attention",
    }
    EXPECTED_UNAVAILABLE = WKV_UNAVAILABLE
    TOKEN_STATE = "three separate tensors"
    BOUNDARY_VALUES = ("attention_keys", "decays", "state_output", "attention_output")
    HYBRID = False
    PLAIN_UP_PROJ = True
    DECODE_MASK_COVERS_CACHE = False

    # == the stream between the blocks =============================================================

    def test_layer_input_is_the_block_input(self, model):
        count = len(model.layers)
        every = model.config.rescale_every

        def body(m):
            found = [m.embed_tokens.output]
            for i in range(count):
                block = m.layers[i]
                found.append((block.input, block.layer_input, block.layer_output))
            return found

        embedded, *read = run(model, body)
        normed0 = run(model, lambda m: m.layers[0].pre_ln.output)
        assert torch.equal(read[0][0], embedded), "block 0 does not take the embedding output"
        assert torch.equal(read[0][1], normed0), "block 0's layer_input is not its embedding norm's output"
        assert not torch.equal(normed0, embedded)
        for index in range(1, count):
            raw, value, _ = read[index]
            assert torch.equal(raw, value), f"block {index}: layer_input is not the block's input"
            previous = read[index - 1][2]
            halved = every > 0 and index % every == 0
            expected = previous / 2 if halved else previous
            assert torch.equal(value, expected), f"block {index} does not take block {index - 1}'s output" + (
                ", halved" if halved else ""
            )
        assert count > every > 0, "the tiny checkpoint halves the stream nowhere"

    # == the kernel values =======================================================================

    def test_kernel_values_shapes(self, model, clean):
        index, mix = self.mixer(model)
        assert isinstance(mix, TimeMix)
        n = self.n_tokens(clean)
        names = ("attention_keys", "attention_values", "decays", "state_input", "attention_head_outputs")
        names += ("state_output", "attention_output")
        read = self.read_mixer(model, index, names)
        channels = axis_size(mix, "channels")
        assert read["state_input"] is None, "a fresh prompt starts from a state"
        for name in ("attention_keys", "attention_values", "attention_head_outputs"):
            assert read[name].shape == (1, n, channels), name
        assert read["decays"].shape == (channels,) and bool((read["decays"] < 0).all())
        assert read["state_output"].shape == (1, channels, 3)
        assert read["attention_output"].shape == (1, n, model.hidden_size)
        bonus = mix._module.time_first.detach()
        wkv, numerator, denominator = wkv_by_hand(
            read["attention_keys"], read["attention_values"], read["decays"], bonus
        )
        state = read["state_output"].double()
        scale = state[..., 2].exp()
        assert torch.allclose(read["attention_head_outputs"].double(), wkv, rtol=1e-4, atol=1e-5), (
            f"wkv differs from the weighted average by {float((read['attention_head_outputs'] - wkv).abs().max())}"
        )
        assert torch.allclose(state[..., 0] * scale, numerator, rtol=1e-4, atol=1e-6), "the numerator is not the sum"
        assert torch.allclose(state[..., 1] * scale, denominator, rtol=1e-4, atol=1e-6), "the denominator is not"

    def test_kernel_value_writes_land(self, model, clean):
        index, _ = self.mixer(model)
        writes = {
            "attention_keys": perturbed,
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
        for name in ("attention_keys", "attention_values", "attention_head_outputs"):

            def in_place(m, name=name):
                getattr(m.layers[index].linear_attn, name)[:] *= 0.5
                return m.logits

            assert moved(run(model, in_place), clean["logits"]), f"an in-place edit of {name} did not land"

        def longer_memory(m):
            mix = m.layers[index].linear_attn
            mix.decays = mix.decays * 0.5
            return mix.attention_head_outputs, m.logits

        wkv, _ = run(model, longer_memory)
        read = self.read_mixer(model, index, ("attention_keys", "attention_values", "decays"))
        bonus = model.layers[index].linear_attn._module.time_first.detach()
        by_hand, _, _ = wkv_by_hand(read["attention_keys"], read["attention_values"], read["decays"] * 0.5, bonus)
        assert torch.allclose(wkv.double(), by_hand, rtol=1e-4, atol=1e-5), "a written decay did not reach the kernel"

        def written_state(m):
            mix = m.layers[index].linear_attn
            mix.state_output = torch.zeros_like(mix.state_output)
            return m.logits

        with pytest.raises(ValueError, match="fresh prompt"):
            run(model, lambda m: setattr(m.layers[index].linear_attn, "state_input", torch.zeros(1, 64, 3)))
        assert torch.equal(run(model, written_state), clean["logits"]), "the state after the prompt moved the prompt"
        for key, word in WKV_UNAVAILABLE.items():
            reason = model.support(layer=index)[key]
            assert reason is not None and word in reason, f"{key}: {reason!r}"

    def test_state_output_write_reaches_the_next_step(self, model):
        index, _ = self.mixer(model)
        found: list[Any] = []
        for zero in (False, True):
            with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2, do_sample=False) as tracer:
                for step in tracer.iter[:2]:
                    mix = model.layers[index].linear_attn
                    if zero and step == 0:
                        state = mix.state_output
                        mix.state_output = torch.cat([state[..., :2] * 0, state[..., 2:]], dim=-1)
                    found.append(model.logits)
        assert torch.equal(found[0], found[2]), "a write after the prompt's kernel moved the prompt's logits"
        assert moved(found[3], found[1]), "a written state_output did not reach the decode step"

    def test_decode_step_continues_the_state(self, model):
        index, mix = self.mixer(model)
        read: list[Any] = []
        with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2, do_sample=False) as tracer:
            for _ in tracer.iter[1:2]:
                mix = model.layers[index].linear_attn
                read.append(mix.state_input)
                read.append(mix.attention_keys)
                read.append(mix.attention_values)
                read.append(mix.decays)
                read.append(mix.attention_head_outputs)
                read.append(mix.state_output)
        initial, keys, values, decays, wkv, state = read
        assert keys.shape[1] == 1
        bonus = model.layers[index].linear_attn._module.time_first.detach()
        by_hand, numerator, _ = wkv_by_hand(keys, values, decays, bonus, initial=initial)
        assert torch.allclose(wkv.double(), by_hand, rtol=1e-4, atol=1e-5), "the decode step ignores the state"
        scale = state[..., 2].double().exp()
        assert torch.allclose(state[..., 0].double() * scale, numerator, rtol=1e-4, atol=1e-6)

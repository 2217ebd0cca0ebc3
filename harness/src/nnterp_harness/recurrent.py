"""`RecurrentChecks`: the contract of a family whose blocks hold a recurrent mixer (`linear_attn`).

A family whose `ENVOYS` hold a `RecurrentMixer` runs it (`nnterp_harness.contracts`), and
`FamilySuite` fails a class with mixer blocks that does not. The
checks run on the first block whose `linear_attn` is a `RecurrentMixer`:

- the kernel values' shapes, and writes to them landing (assignments everywhere,
  in-place edits where the kernel's tensor is not a view);
- `state_input` is `None` on a prompt and, under `generate`, each step starts from
  the state the step before it left;
- routed (`route_kernels(family, "torch")`, per test, restored afterwards): `states`
  equals the recurrence computed by hand from the served values, ends on
  `state_output`, and `state`, `state_after(t)` and `set_state_after(t, value)` address
  token `t`, a write there moving that token and the later ones only;
- `"default"` restores the import-time kernels and the reason in `support()`;
- a hybrid's blocks: both kinds present, and the module a block lacks reported and
  refused by name.

A value the forward gives as `None` on a prompt (`NONE_ON_PROMPT`) is read by the
suite's generic tests on the first decode step, where it is a tensor.
"""

from __future__ import annotations

import inspect
from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module
import pytest
import torch

import nnterp
from nnterp import StandardizedTransformer, axis_size, chunk_per_token, route_kernels
from nnterp.components import (
    ChannelGates,
    DerivedEProperty,
    LinearAttention,
    RecurrentMixer,
    SelectiveScan,
    StateSpace,
)
from nnterp.components.recurrent import base_name, modeling_module
from nnterp.components.standard import NOT_HERE, NOWHERE

from .helpers import PROMPT, host_of, moved, on_no_block, perturbed, run, scale_of, split_key

#: `EXPECTED_UNAVAILABLE` entries of a mixer on its default kernels: the state per token needs routing.
ROUTING_NEEDED = {"linear_attn.state": "route_kernels", "linear_attn.states": "route_kernels"}
#: `EXPECTED_UNAVAILABLE` entries of a Mamba-2 mixer: no state per token, states at chunk boundaries only.
CHUNKED_STATES = {"linear_attn.state": "no per-token occurrence", "linear_attn.states": "chunk_per_token"}
#: `EXPECTED_UNAVAILABLE` entries of a block that is a norm and a mixer only (Mamba).
MIXER_ONLY = {
    "layer_mid": "no post_attention_layernorm module",
    "mlp_norm_output": "no post_attention_layernorm module",
    "mlp_input": "no mlp module",
}


def delta_rule_states(queries, keys, values, decays, betas, initial=None) -> torch.Tensor:
    """The gated delta rule's state after every token, computed token by token from the served values."""
    del queries  # the state does not depend on the queries

    def l2(x):
        return x * torch.rsqrt((x * x).sum(-1, keepdim=True) + 1e-6)

    keys, values = l2(keys.float()), values.float()
    batch, seq, heads, key_dim = keys.shape
    state = torch.zeros(batch, heads, key_dim, values.shape[-1]) if initial is None else initial.float()
    found = []
    for t in range(seq):
        decay = decays[:, t].float().exp()
        # One decay per head, or one per head and key channel (Kimi delta attention's `ChannelGates`).
        state = state * (decay[..., None] if decay.dim() == 3 else decay[..., None, None])
        predicted = (state * keys[:, t].unsqueeze(-1)).sum(-2)
        delta = (values[:, t] - predicted) * betas[:, t].float().unsqueeze(-1)
        state = state + keys[:, t].unsqueeze(-1) * delta.unsqueeze(-2)
        found.append(state)
    return torch.stack(found, dim=1)


def state_space_states(keys, values, decays, betas, limit=(0.0, float("inf"))) -> torch.Tensor:
    """A Mamba-2 scan's state after every token, from the served `B`, `x`, `A * dt` and `dt`.

    The scan clamps the step to the mixer's `time_step_limit` before using it (Nemotron-H's
    floor is `time_step_min`), which the served `betas` and `decays` are not.
    """
    clamped = betas.float().clamp(*limit)
    decays, betas = decays.float() * (clamped / betas.float()), clamped
    batch, seq, heads, head_dim = values.shape
    keys = keys.float().repeat_interleave(heads // keys.shape[2], dim=2)
    state = torch.zeros(batch, heads, head_dim, keys.shape[-1])
    found = []
    for t in range(seq):
        written = betas[:, t, :, None, None].float() * values[:, t, :, :, None].float() * keys[:, t, :, None, :]
        state = decays[:, t, :, None, None].float().exp() * state + written
        found.append(state)
    return torch.stack(found, dim=1)


def selective_scan_states(keys, values, decays, betas) -> torch.Tensor:
    """A Mamba-1 scan's state after every token, from the served `B`, `x`, `dt * A` and `dt`."""
    batch, seq, channels, state_dim = decays.shape
    state = torch.zeros(batch, channels, state_dim)
    found = []
    for t in range(seq):
        written = betas[:, t, :, None].float() * keys[:, t, 0, None, :].float() * values[:, t, :, None].float()
        state = decays[:, t].float().exp() * state + written
        found.append(state)
    return torch.stack(found, dim=1)


#: The writes the kernel-value test makes: noise on the projections (the kernel l2-normalizes a DeltaNet's queries
#: and keys, so a scale would vanish), a longer memory and weaker writes on the gates (their signs must hold).
WRITES = {
    "attention_queries": perturbed,
    "attention_keys": perturbed,
    "attention_values": perturbed,
    "decays": lambda value: value * 2,
    "betas": lambda value: value * 0.5,
}


def reason_of(model: Any, index: int, name: str) -> str | None:
    return model.support(layer=index)[f"linear_attn.{name}"]


class RecurrentChecks:
    """Checks for recurrent mixer blocks; the class it is mixed into is a `FamilySuite`."""

    #: Mixer values a prompt serves as `None`, read on the first decode step by the generic tests.
    NONE_ON_PROMPT = ("state_input",)
    #: Whether every block holds the mixer (a pure state-space model) rather than some blocks attention.
    HYBRID = True

    # -- helpers --------------------------------------------------------------------------

    def mixer(self, model: Any) -> tuple[int, Any]:
        """The first block whose `linear_attn` is a `RecurrentMixer`, and that mixer."""
        for index, block in enumerate(model.layers):
            mix = getattr(block, "linear_attn", None)
            if isinstance(mix, RecurrentMixer):
                return index, mix
        pytest.fail("no block holds a recurrent mixer")

    def mixer_blocks(self, model: Any) -> list[int]:
        return [
            i for i, block in enumerate(model.layers) if isinstance(getattr(block, "linear_attn", None), RecurrentMixer)
        ]

    def available(self, model: Any, key: str) -> bool:
        """`FamilySuite.available`, with a hybrid's blocks that lack the module left out of the reasons."""
        expected = self.EXPECTED_UNAVAILABLE.get(key)
        if expected is None:
            return not on_no_block(model, key)
        entry = model.support().get(key)
        assert entry is not None, f"{key} is in EXPECTED_UNAVAILABLE, but support() reports it available"
        prefix, name = split_key(key)
        absent = f"no {prefix} module on this block"
        # A block whose module is of another kind (Jamba's dense MLP beside its mixtures) lacks the value.
        other_kind = f"the {prefix} on this block has no {name}"
        reasons = list(entry.values()) if isinstance(entry, dict) else [entry]
        reasons = [reason for reason in reasons if reason not in (absent, other_kind)]
        assert reasons, f"{key} is in EXPECTED_UNAVAILABLE, but every block with the module serves it"
        for reason in reasons:
            assert expected in reason, f"{key}: expected a reason containing {expected!r}, got {reason!r}"
        return False

    def read_on_blocks(self, model: Any, key: str, blocks: list[int], prompt: Any = PROMPT) -> list[torch.Tensor]:
        prefix, name = split_key(key)
        if prefix != "linear_attn" or name not in self.NONE_ON_PROMPT:
            return super().read_on_blocks(model, key, blocks, prompt)
        box: list[Any] = []
        with model.generate(prompt, max_new_tokens=2, min_new_tokens=2) as tracer:
            for _ in tracer.iter[1:2]:
                for i in blocks:
                    box.append(getattr(host_of(model.layers[i], prefix), name))
        return box

    def routed_model(self, checkpoint: Any) -> Any:
        """A fresh load that reads the state after every token: routed (the caller restores), chunked per token."""
        route_kernels(self.FAMILY, "torch")
        kwargs = {"dispatch": True, "attn_implementation": "eager", **self.LOAD_KWARGS}
        model = StandardizedTransformer(str(checkpoint), **kwargs)
        if any(isinstance(getattr(block, "linear_attn", None), StateSpace) for block in model.layers):
            chunk_per_token(model)
        return model

    def token_states(self, model: Any) -> bool:
        """Whether the mixer binds the state once per token (`state`, `set_state_after`)."""
        _, mix = self.mixer(model)
        return type(mix).STATE_OP is not None

    def hand_states(self, mix: Any, values: dict[str, torch.Tensor]) -> torch.Tensor:
        """The state after every token, computed from the served values by the mixer's own recurrence."""
        if isinstance(mix, LinearAttention):
            return delta_rule_states(
                values["attention_queries"],
                values["attention_keys"],
                values["attention_values"],
                values["decays"],
                values["betas"],
            )
        if isinstance(mix, SelectiveScan):
            return selective_scan_states(
                values["attention_keys"], values["attention_values"], values["decays"], values["betas"]
            )
        if isinstance(mix, StateSpace):
            return state_space_states(
                values["attention_keys"],
                values["attention_values"],
                values["decays"],
                values["betas"],
                tuple(getattr(mix._module, "time_step_limit", (0.0, float("inf")))),
            )
        raise NotImplementedError(f"no recurrence by hand for {type(mix).__name__}")

    def in_place_values(self, mix: Any) -> tuple[str, ...]:
        """The mixer values an in-place edit reaches the kernel through (the others are views torch refuses)."""
        if isinstance(mix, SelectiveScan):
            return ("attention_values", "attention_head_outputs")
        if isinstance(mix, StateSpace):
            return ("attention_head_outputs",)
        return ("attention_head_outputs", "decays", "betas")

    def read_mixer(self, model: Any, index: int, names: tuple[str, ...], prompt: Any = PROMPT) -> dict[str, Any]:
        """Several values of block `index`'s mixer, in one trace, in the order given (forward order)."""

        def body(m):
            mix = m.layers[index].linear_attn
            found = {}
            for name in names:
                found[name] = getattr(mix, name)
            return found

        return run(model, body, prompt)

    def sublayers_besides_mixers(self, model: Any) -> bool:
        """Whether some block has a softmax attention or an MLP, which the suite's own boundary tests cover."""
        return any(
            getattr(block, "self_attn", None) is not None or getattr(block, "mlp", None) is not None
            for block in model.layers
        )

    # == the boundaries around the mixer =========================================================

    def test_module_boundaries(self, model, clean):
        if self.sublayers_besides_mixers(model):
            super().test_module_boundaries(model, clean)
        index, _ = self.mixer(model)
        if not self.ATTENTION_NORM or not self.available(model, "attention_norm_output"):
            return
        norm, value, mixer_in = run(
            model,
            lambda m: (
                getattr(m.layers[index], self.ATTENTION_NORM).output,
                m.layers[index].attention_norm_output,
                m.layers[index].linear_attn.input,
            ),
        )
        assert torch.equal(value, norm), f"block {index}: attention_norm_output is not {self.ATTENTION_NORM}.output"
        assert torch.equal(value, mixer_in), f"block {index}: attention_norm_output is not what the mixer reads"
        self._write_moves_logits(model, clean, "attention_norm_output", index)

    def test_sublayer_interiors(self, model, clean):
        if self.sublayers_besides_mixers(model):
            super().test_sublayer_interiors(model, clean)
        index, mix = self.mixer(model)
        heads = self.read_one(model, "linear_attn.attention_head_outputs", index)
        assert heads.shape[:2] == (1, self.n_tokens(clean))
        self._write_moves_logits(model, clean, "linear_attn.attention_head_outputs", index)

    # == the block kinds ========================================================================

    def test_every_block_kind_is_present(self, model):
        mixers = self.mixer_blocks(model)
        assert mixers, "no block holds a recurrent mixer"
        if self.HYBRID:
            others = [i for i in range(len(model.layers)) if i not in mixers]
            assert others, "the tiny checkpoint keeps no attention block: keep one block of each kind"
            for index in others:
                assert getattr(model.layers[index], "linear_attn", None) is None
                with pytest.raises(AttributeError, match="no linear_attn module on this block"):
                    model.layers[index].linear_attn  # noqa: B018
            for index in mixers:
                assert getattr(model.layers[index], "self_attn", None) is None
                with pytest.raises(AttributeError, match="no self_attn module on this block"):
                    model.layers[index].self_attn  # noqa: B018

    def test_support_reports_the_missing_module_per_block(self, model):
        mixers = self.mixer_blocks(model)
        support = model.support()
        for name in type(model.layers[mixers[0]].linear_attn).values():
            entry = support[f"linear_attn.{name}"]
            for index in range(len(model.layers)):
                if index not in mixers:
                    assert isinstance(entry, dict) and entry[index] == "no linear_attn module on this block", name
        # Every block value of the family has a key, the attention's where no block has one (Mamba) included.
        entry = support["self_attn.attention_output"]
        attention = [i for i in range(len(model.layers)) if getattr(model.layers[i], "self_attn", None) is not None]
        expected = NOT_HERE if attention else NOWHERE
        for index in mixers:
            if index in attention:
                continue  # a block running an attention beside its mixer (Falcon-H1)
            assert isinstance(entry, dict) and entry[index] == expected.format("self_attn"), entry
        for name in nnterp.Mlp.values():
            assert f"mlp.{name}" in support, name

    # == the kernel values =======================================================================

    def test_kernel_values_shapes(self, model, clean):
        index, mix = self.mixer(model)
        n = self.n_tokens(clean)
        names = ("attention_queries", "attention_keys", "attention_values", "decays", "betas", "state_input")
        names += ("attention_head_outputs", "state_output", "attention_output")
        read = self.read_mixer(model, index, names)
        assert read["state_input"] is None, "a fresh prompt starts from no state"
        assert read["attention_queries"].shape[:2] == (1, n) and read["attention_values"].shape[:2] == (1, n)
        assert read["attention_output"].shape == (1, n, model.hidden_size)
        state = read["state_output"]
        assert state.shape[0] == 1 and state.dim() == type(mix).values()["state_output"].layout.dim_str.count(" ") + 1
        if isinstance(mix, LinearAttention):
            heads, key_dim, value_dim = (axis_size(mix, axis) for axis in ("heads", "key_dim", "value_dim"))
            assert read["attention_queries"].shape == (1, n, heads, key_dim)
            assert read["attention_keys"].shape == (1, n, heads, key_dim)
            assert read["attention_values"].shape == (1, n, heads, value_dim)
            assert read["attention_head_outputs"].shape == (1, n, heads, value_dim)
            gates = (1, n, heads, key_dim) if type(mix).decays.layout is ChannelGates else (1, n, heads)
            assert read["decays"].shape == gates and read["betas"].shape == (1, n, heads)
            assert read["decays"].dtype == torch.float32 and bool((read["decays"] <= 0).all())
            assert bool(((read["betas"] > 0) & (read["betas"] < 2)).all())
            assert state.shape == (1, heads, key_dim, value_dim)
        if isinstance(mix, SelectiveScan):
            channels, state_dim = axis_size(mix, "channels"), axis_size(mix, "state_dim")
            assert read["attention_queries"].shape == read["attention_keys"].shape == (1, n, 1, state_dim)
            assert read["attention_values"].shape == read["attention_head_outputs"].shape == (1, n, channels)
            assert read["betas"].shape == (1, n, channels) and bool((read["betas"] > 0).all())
            assert read["decays"].shape == (1, n, channels, state_dim) and bool((read["decays"] <= 0).all())
            assert state.shape == (1, channels, state_dim)

    def test_kernel_value_writes_land(self, model, clean):
        index, mix = self.mixer(model)
        checked = 0
        values = type(mix).values()
        for name in ("attention_queries", "attention_keys", "attention_values", "decays", "betas"):
            if isinstance(values[name], DerivedEProperty):

                def refused(m, name=name):
                    mix = m.layers[index].linear_attn
                    setattr(mix, name, getattr(mix, name) * 0.5)

                with pytest.raises(AttributeError, match=f"{name} is derived and read-only"):
                    run(model, refused)
                continue

            def assign(m, name=name):
                mix = m.layers[index].linear_attn
                setattr(mix, name, WRITES[name](getattr(mix, name)))
                return m.logits

            assert moved(run(model, assign), clean["logits"]), f"assigning {name} did not move the logits"
            checked += 1
        for name in self.in_place_values(mix):

            def in_place(m, name=name):
                getattr(m.layers[index].linear_attn, name)[:] *= 0.5
                return m.logits

            assert moved(run(model, in_place), clean["logits"]), f"an in-place edit of {name} did not land"
            checked += 1
        assert checked

    def test_last_token_edit_is_causal(self, model, clean):
        index, _ = self.mixer(model)

        def edit(m):
            mix = m.layers[index].linear_attn
            values = mix.attention_values.clone()
            values[:, -1] = 0
            mix.attention_values = values
            return m.logits

        edited = run(model, edit)
        # Within rounding: a mixture groups its tokens by expert, and a token routed elsewhere regroups the rest.
        atol = 1e-6 * scale_of(clean["logits"])
        assert torch.allclose(edited[:, :-1], clean["logits"][:, :-1], rtol=0, atol=atol), (
            "an edit of the last token moved an earlier one"
        )
        assert moved(edited[:, -1], clean["logits"][:, -1]), "an edit of the last token did not move it"

    def test_state_hands_off_between_generate_steps(self, model):
        index, _ = self.mixer(model)
        entering: list[Any] = []
        leaving: list[Any] = []
        with model.generate(PROMPT, max_new_tokens=3, min_new_tokens=3, do_sample=False) as tracer:
            for _ in tracer.iter[:3]:
                mix = model.layers[index].linear_attn
                entering.append(mix.state_input)
                leaving.append(mix.state_output)
        assert len(entering) == len(leaving) == 3
        assert entering[0] is None, "the prompt's call starts from a state"
        for step in (1, 2):
            assert torch.equal(entering[step], leaving[step - 1]), f"step {step} does not start where {step - 1} ended"
        assert not torch.equal(leaving[1], leaving[2])

    def test_state_input_write_lands_on_a_decode_step(self, model):
        index, _ = self.mixer(model)
        found: list[Any] = []
        for zero in (False, True):
            with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2, do_sample=False) as tracer:
                for _ in tracer.iter[1:2]:
                    mix = model.layers[index].linear_attn
                    if zero:
                        mix.state_input = torch.zeros_like(mix.state_input)
                    found.append(model.logits)
        assert moved(found[1], found[0]), "a zeroed state_input did not move the decode step"

    # == the state per token, routed ===============================================================

    def test_unrouted_state_reports_routing(self, model):
        index, mix = self.mixer(model)
        reason = model.support(layer=index)["linear_attn.states"]
        hint = "route_kernels"
        if type(mix).STATE_OP is None:
            hint = "chunk_per_token"
            assert reason_of(model, index, "state") is not None, "a scan without a per-token state serves state"
        assert reason is not None and hint in reason, reason
        with pytest.raises(nnterp.Unavailable, match=hint):
            with model.trace(PROMPT):
                model.layers[index].linear_attn.states  # noqa: B018

    def test_states_are_the_recurrence(self, checkpoint):
        routed = self.routed_model(checkpoint)
        try:
            index, mix = self.mixer(routed)
            assert routed.support(layer=index)["linear_attn.states"] is None
            names = ("attention_queries", "attention_keys", "attention_values", "decays", "betas")
            names += ("states", "state_output")
            read = self.read_mixer(routed, index, names)
            states = read["states"]
            assert states.shape[1] == read["attention_values"].shape[1]
            assert torch.equal(states[:, -1], read["state_output"]), "the last state is not state_output"
            by_hand = self.hand_states(mix, read)
            assert torch.allclose(by_hand, states.float(), rtol=0, atol=1e-5 * max(1.0, float(states.abs().max()))), (
                f"states differ from the recurrence by {float((by_hand - states).abs().max())}"
            )
            with pytest.raises(AttributeError, match="read-only"):
                with routed.trace(PROMPT):
                    routed.layers[index].linear_attn.states = states
        finally:
            route_kernels(self.FAMILY, "default")

    def test_state_after_and_set_state_after(self, checkpoint):
        routed = self.routed_model(checkpoint)
        try:
            index, _ = self.mixer(routed)
            clean = run(routed, lambda m: (m.layers[index].linear_attn.states, m.logits))
            states, logits = clean
            t = 2
            if not self.token_states(routed):
                before = run(routed, lambda m: m.layers[index].linear_attn.state_after(t))
                assert torch.equal(before, states[:, t]), "state_after(t) is not states[:, t]"
                with pytest.raises(nnterp.Unavailable, match="state_input"):
                    with routed.trace(PROMPT):
                        routed.layers[index].linear_attn.set_state_after(t, states[:, t])
                return

            def body(m):
                mix = m.layers[index].linear_attn
                before = mix.state_after(t)
                mix.set_state_after(t, torch.zeros_like(before))
                return before, mix.state_after(t + 1), m.logits

            before, after, edited = run(routed, body)
            assert torch.equal(before, states[:, t]), "state_after(t) is not states[:, t]"
            assert not torch.equal(after, states[:, t + 1]), "the write at t did not reach t + 1"
            atol = 1e-6 * scale_of(logits)
            assert torch.allclose(edited[:, :t], logits[:, :t], rtol=0, atol=atol), (
                "a write at t moved an earlier token"
            )
            assert moved(edited[:, t:], logits[:, t:]), "a write at t moved no later token"
            with pytest.raises(ValueError, match="shape"):
                with routed.trace(PROMPT):
                    routed.layers[index].linear_attn.set_state_after(0, torch.zeros(1))

            box: list[Any] = []
            with routed.trace(PROMPT) as tracer:
                for _ in tracer.iter[t]:
                    mix = routed.layers[index].linear_attn
                    box.append(mix.state)
                    mix.state = torch.zeros_like(states[:, t])
                box.append(routed.logits)
            assert torch.equal(box[0], states[:, t]), "state under tracer.iter[t] is not states[:, t]"
            assert torch.equal(box[1], edited), "writing state at t is not set_state_after(t)"
        finally:
            route_kernels(self.FAMILY, "default")

    def test_states_per_generate_step(self, checkpoint):
        routed = self.routed_model(checkpoint)
        try:
            index, _ = self.mixer(routed)
            prompt_states = run(routed, lambda m: m.layers[index].linear_attn.states)
            stacks: list[Any] = []
            outs: list[Any] = []
            with routed.generate(PROMPT, max_new_tokens=3, min_new_tokens=3, do_sample=False) as tracer:
                for _ in tracer.iter[:3]:
                    mix = routed.layers[index].linear_attn
                    stacks.append(mix.states)
                    outs.append(mix.state_output)
            assert torch.equal(stacks[0], prompt_states), "the prompt step's states differ from a trace's"
            for step in (1, 2):
                assert stacks[step].shape[1] == 1, f"step {step} covers {stacks[step].shape[1]} tokens"
                assert torch.equal(stacks[step][:, 0], outs[step]), f"step {step}'s state is not its state_output"
        finally:
            route_kernels(self.FAMILY, "default")

    def test_route_kernels_default_restores(self, model):
        index, mix = self.mixer(model)
        module = modeling_module(mix)
        names = [base_name(label) for label in type(mix).kernel_labels()]
        before = [getattr(module, name) for name in names]
        reason = model.support(layer=index)["linear_attn.states"]
        route_kernels(self.FAMILY, "torch")
        try:
            routed = [getattr(module, name) for name in names]
            assert all(inspect.isfunction(fn) for fn in routed)
            if type(mix).STATE_OP is not None:
                assert model.support(layer=index)["linear_attn.states"] is None
            else:
                assert reason_of(model, index, "state") is not None, (
                    "routing gave a per-token state to a scan without one"
                )
        finally:
            route_kernels(self.FAMILY, "default")
        assert [getattr(module, name) for name in names] == before
        assert model.support(layer=index)["linear_attn.states"] == reason
        with pytest.raises(ValueError, match="torch"):
            route_kernels(self.FAMILY, "fast")

    def test_an_optimized_kernel_is_refused(self, model, monkeypatch):
        index, mix = self.mixer(model)
        module = modeling_module(mix)
        name = base_name(type(mix).CHUNK_KERNEL)
        original = getattr(module, name)

        def dispatcher(torch_function, implementation, package):
            def wrapped(*args, **kwargs):
                assert torch_function is not implementation, package
                return implementation(*args, **kwargs)

            return wrapped

        compiled = dispatcher(original, lambda *args, **kwargs: None, "fla")
        monkeypatch.setattr(module, name, compiled)
        reason = model.support(layer=index)["linear_attn.attention_queries"]
        assert reason is not None and "fla" in reason and "route_kernels" in reason
        assert model.support(layer=index)["linear_attn.attention_output"] is None

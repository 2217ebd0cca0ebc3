"""MiniMax (`MiniMaxForCausalLM`), end to end: a lightning attention block, then a softmax attention block, each with
a mixture, and adds that weigh the normed stream and the contribution by the block's factors."""

from typing import Any

import pytest
import torch

import nnterp
from nnterp import route_kernels
from nnterp.components.lightning_attention import NO_GATES, LightningAttention, block_per_token
from nnterp_harness.release import family
from nnterp_harness.suite import NO_SHARED_EXPERT, PROMPT, ROUTED_EXPERTS, FamilySuite, moved, perturbed, rows, run
from nnterp_harness.weighted_stream import WeightedStreamChecks

FAMILY = family("minimax")

#: The mixer values lightning attention lacks, with a word of each reason.
LIGHTNING_UNAVAILABLE = {
    "linear_attn.decays": "constant of the head",
    "linear_attn.betas": "constant of the head",
    "linear_attn.state": "block_per_token",
    "linear_attn.states": "block_per_token",
}


def lightning_by_hand(queries, keys, values, slope, initial=None):
    """Lightning attention token by token: each head's state decays by exp(-slope), adds k^T v, and q reads it.

    Returns (the head outputs `[batch, seq, heads, head_dim]`, the state after the last token).
    """
    batch, seq, heads, dim = keys.shape
    ratio = torch.exp(-slope.float().reshape(1, heads, 1, 1))
    state = torch.zeros(batch, heads, dim, dim) if initial is None else initial.float()
    outputs = []
    for t in range(seq):
        state = ratio * state + keys[:, t].float().unsqueeze(-1) * values[:, t].float().unsqueeze(-2)
        outputs.append((queries[:, t].float().unsqueeze(-1) * state).sum(-2))
    return torch.stack(outputs, dim=1), state


class TestMiniMax(FamilySuite):
    CHECKS = (WeightedStreamChecks,)
    CHECKPOINT = "minimax"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", attn=None)
    EXPECTED_UNAVAILABLE = {**LIGHTNING_UNAVAILABLE, **ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}
    # A decode step may receive the new token's mask only (5.24); test_decode_step_is_the_full_forward holds it right.
    DECODE_MASK_COVERS_CACHE = False

    def stream_term(self, block, sublayer, stream):
        if sublayer == "attention":
            return block.input_layernorm(stream) * block.attn_alpha_factor
        return block.post_attention_layernorm(stream) * block.mlp_alpha_factor

    def slope(self, model: Any, index: int) -> torch.Tensor:
        return model.layers[index].linear_attn._module.slope_rate.reshape(-1)

    # == the block ===============================================================================

    def test_the_mixer_sits_under_self_attn(self, model):
        block = model.layers[0]
        assert block._module.block_type == "linear_attention"
        assert block.linear_attn is block._child_map["self_attn"]
        assert type(block.linear_attn) is FAMILY.LightningAttention
        with pytest.raises(AttributeError, match="no self_attn module on this block"):
            block.self_attn  # noqa: B018
        assert type(model.layers[1].self_attn) is FAMILY.Attention

    def test_contributions_are_the_weighted_sublayer_outputs(self, model):
        def body(m):
            read = []
            for i, host in ((0, m.layers[0].linear_attn), (1, m.layers[1].self_attn)):
                read.append(
                    (i, host.output[0], host.attention_output, m.layers[i].mlp.output, m.layers[i].mlp.mlp_output)
                )
            return read

        for index, attn, attn_added, mlp, mlp_added in run(model, body):
            block = model.layers[index]._module
            assert block.attn_beta_factor != 1 and block.mlp_beta_factor != 1
            assert torch.equal(attn_added, attn * block.attn_beta_factor)
            assert torch.equal(mlp_added, mlp * block.mlp_beta_factor)

    def test_weights_are_the_renormalized_softmax_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[0].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        probs = torch.softmax(logits.float(), dim=-1)
        assert torch.equal(indices.sort(-1).values, probs.topk(2, dim=-1).indices.sort(-1).values)
        chosen = probs.gather(-1, indices)
        assert torch.allclose(weights, chosen / chosen.sum(-1, keepdim=True), atol=1e-6)

    def test_decode_step_is_the_full_forward(self, model):
        box: list[Any] = []
        with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2, do_sample=False) as tracer:
            for _ in tracer.iter[1:2]:
                box.append(model.logits)
            box.append(tracer.result)
        logits, sequence = box
        full = run(model, lambda m: m.logits, {"input_ids": sequence[:, :-1]})
        assert torch.allclose(logits[:, -1], full[:, -1], rtol=0, atol=1e-5 * max(1.0, float(full.abs().max())))

    # == the mixer's values =======================================================================

    def test_kernel_values_shapes(self, model, clean):
        index, mix = self.mixer(model)
        assert isinstance(mix, LightningAttention)
        n = self.n_tokens(clean)
        names = ("attention_queries", "attention_keys", "attention_values", "state_input")
        names += ("attention_head_outputs", "state_output", "attention_output")
        read = self.read_mixer(model, index, names)
        heads, dim = mix.heads, mix.key_dim
        assert read["state_input"] is None, "a fresh prompt starts from no state"
        for name in ("attention_queries", "attention_keys", "attention_values", "attention_head_outputs"):
            assert read[name].shape == (1, n, heads, dim), name
        assert read["state_output"].shape == (1, heads, dim, dim)
        assert read["attention_output"].shape == (1, n, model.hidden_size)
        assert n > mix.block_size, "the prompt stays within one block: the state between blocks goes untested"

    def test_head_outputs_and_state_are_the_recurrence(self, model):
        index, _ = self.mixer(model)
        names = ("attention_queries", "attention_keys", "attention_values", "attention_head_outputs", "state_output")
        read = self.read_mixer(model, index, names)
        heads, state = lightning_by_hand(
            read["attention_queries"], read["attention_keys"], read["attention_values"], self.slope(model, index)
        )
        scale = max(1.0, float(state.abs().max()))
        assert torch.allclose(read["state_output"], state, rtol=0, atol=1e-5 * scale)
        assert torch.allclose(read["attention_head_outputs"], heads, rtol=0, atol=1e-5 * scale)

    def test_kernel_value_writes_land(self, model, clean):
        index, _ = self.mixer(model)
        for name in ("attention_queries", "attention_keys", "attention_values"):
            # Noise, not a scale: the RMS norm over the heads undoes any scale of the queries or values.
            def assign(m, name=name):
                mix = m.layers[index].linear_attn
                setattr(mix, name, perturbed(getattr(mix, name)))
                return m.logits

            assert moved(run(model, assign), clean["logits"]), f"assigning {name} did not move the logits"

        def in_place(m):
            value = m.layers[index].linear_attn.attention_head_outputs
            value[:] = perturbed(value)
            return m.logits

        assert moved(run(model, in_place), clean["logits"]), "an in-place edit of attention_head_outputs did not land"
        # The queries, keys and values are views of one split, which torch refuses to edit in place: assign them.
        with pytest.raises(RuntimeError, match="is a view and is being modified inplace"):
            run(model, lambda m: m.layers[index].linear_attn.attention_values.mul_(0.5))
        with pytest.raises(AttributeError, match="state_output is derived and read-only"):
            run(model, lambda m: setattr(m.layers[index].linear_attn, "state_output", torch.zeros(1)))

    def test_a_written_value_reaches_the_state(self, model):
        index, _ = self.mixer(model)

        def body(m):
            mix = m.layers[index].linear_attn
            values = mix.attention_values * 2
            mix.attention_values = values
            return mix.attention_queries, mix.attention_keys, values, mix.state_output

        queries, keys, values, state = run(model, body)
        _, by_hand = lightning_by_hand(queries, keys, values, self.slope(model, index))
        assert torch.allclose(state, by_hand, rtol=0, atol=1e-5 * max(1.0, float(by_hand.abs().max())))

    # == the state between and within calls =======================================================

    def routed_model(self, checkpoint: Any) -> Any:
        """A fresh load whose lightning mixers run one-token blocks, so the prompt's loop binds every token's state."""
        model = super().routed_model(checkpoint)
        block_per_token(model)
        return model

    def test_unrouted_state_reports_routing(self, model):
        index, _ = self.mixer(model)
        for key, word in LIGHTNING_UNAVAILABLE.items():
            reason = model.support(layer=index)[key]
            assert reason is not None and word in reason, f"{key}: {reason!r}"
        assert model.support(layer=index)["linear_attn.decays"] == NO_GATES
        with pytest.raises(nnterp.Unavailable, match="block_per_token"):
            with model.trace(PROMPT):
                model.layers[index].linear_attn.states  # noqa: B018

    def test_states_are_the_recurrence(self, checkpoint):
        routed = self.routed_model(checkpoint)
        index, _ = self.mixer(routed)
        assert routed.support(layer=index)["linear_attn.states"] is None
        names = ("attention_queries", "attention_keys", "attention_values", "states", "state_output")
        read = self.read_mixer(routed, index, names)
        states = read["states"]
        assert states.shape == (1, read["attention_keys"].shape[1], *read["state_output"].shape[1:])
        assert torch.equal(states[:, -1], read["state_output"]), "the last state is not state_output"
        slope = self.slope(routed, index)
        by_hand = torch.stack(
            [
                lightning_by_hand(
                    read["attention_queries"][:, : t + 1],
                    read["attention_keys"][:, : t + 1],
                    read["attention_values"][:, : t + 1],
                    slope,
                )[1]
                for t in range(states.shape[1])
            ],
            dim=1,
        )
        assert torch.allclose(by_hand, states, rtol=0, atol=1e-5 * max(1.0, float(states.abs().max())))
        with pytest.raises(AttributeError, match="read-only"):
            with routed.trace(PROMPT):
                routed.layers[index].linear_attn.states = states

    def test_one_token_blocks_keep_the_logits(self, checkpoint, clean):
        routed = self.routed_model(checkpoint)
        index, _ = self.mixer(routed)
        assert routed.layers[index].linear_attn.block_size == 1
        logits = run(routed, lambda m: m.logits)
        assert torch.allclose(logits, clean["logits"], rtol=0, atol=1e-5 * max(1.0, float(logits.abs().max())))
        block_per_token(routed, enabled=False)
        assert routed.layers[index].linear_attn.block_size == routed.config.block_size

    def test_route_kernels_default_restores(self, model):
        index, mix = self.mixer(model)
        assert type(mix).kernel_labels() == ()
        reason = model.support(layer=index)["linear_attn.states"]
        route_kernels(self.FAMILY, "torch")
        try:
            assert model.support(layer=index)["linear_attn.states"] == reason, (
                "routing gave lightning a state per token"
            )
        finally:
            route_kernels(self.FAMILY, "default")
        assert model.support(layer=index)["linear_attn.states"] == reason
        with pytest.raises(ValueError, match="torch"):
            route_kernels(self.FAMILY, "fast")

    def test_an_optimized_kernel_is_refused(self, model):
        index, _ = self.mixer(model)
        # The recurrence is the forward's own arithmetic: no kernel can be swapped in, so every read value stays.
        support = model.support(layer=index)
        for name in ("attention_queries", "attention_head_outputs", "state_input", "state_output", "attention_output"):
            assert support[f"linear_attn.{name}"] is None, name

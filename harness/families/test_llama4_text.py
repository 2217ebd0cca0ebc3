"""Llama 4's text model, end to end: a dense rotary block, then a mixture block without rotary embeddings whose
experts run on every token times its sigmoid routing score, beside a shared expert."""

import torch

from nnterp.components.premultiplied_moe import PremultipliedMoe
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run, scale_of

FAMILY = family("llama4_text")


def expert(module, index, tokens):
    """Expert `index` of the experts module, computed by hand on `tokens` (`[..., hidden_size]`)."""
    gate, up = (tokens @ module.gate_up_proj[index]).chunk(2, dim=-1)
    return (up * module.act_fn(gate)) @ module.down_proj[index]


class TestLlama4Text(FamilySuite):
    CHECKPOINT = "llama4_text"
    FAMILY = FAMILY
    NATIVE = {**LLAMA_ROWS, "layers.0.mlp": "model.layers.0.feed_forward"}
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

    def test_moe_layers_decide_the_mixture_blocks(self, model):
        kinds = [isinstance(block.mlp, PremultipliedMoe) for block in model.layers]
        assert kinds == [i in model.config.moe_layers for i in range(len(kinds))] == [False, True]

    def test_weights_are_the_sigmoid_of_the_top_logits(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        top = logits.topk(2, dim=-1)
        assert torch.equal(indices, top.indices)
        assert torch.allclose(weights, torch.sigmoid(top.values), atol=1e-6)

    def test_slots_are_the_experts_on_premultiplied_tokens(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.input, mixture.expert_weights, mixture.expert_indices, mixture.expert_outputs

        x, weights, indices, slots = run(model, body)
        experts = model.layers[1].mlp.experts._module
        for position in range(x.shape[1]):
            for slot in range(weights.shape[-1]):
                expected = expert(experts, int(indices[0, position, slot]), weights[0, position, slot] * x[0, position])
                assert torch.allclose(slots[0, position, slot], expected, atol=1e-5 * scale_of(expected))
                # The weight enters before the expert's nonlinearity: it does not factor out.
                unweighted = weights[0, position, slot] * expert(
                    experts, int(indices[0, position, slot]), x[0, position]
                )
                assert not torch.allclose(slots[0, position, slot], unweighted, atol=1e-5 * scale_of(expected))

    # The two suite methods below state `slot == weight * expert(x)`; on this mixture the weight multiplies the
    # expert's input, so they state the same writes with the family's form.

    def test_rerouting_a_slot_matches_a_hand_computation(self, model):
        index, moe = self.mixture(model)
        x, weights, indices = run(
            model,
            lambda m: (
                m.layers[index].mlp.input,
                m.layers[index].mlp.expert_weights,
                m.layers[index].mlp.expert_indices,
            ),
        )
        target = next(e for e in range(moe.num_experts) if e not in set(indices[0, -1].tolist()))

        def body(m):
            mixture = m.layers[index].mlp
            new = mixture.expert_indices.clone()
            new[:, -1, 0] = target
            mixture.expert_indices = new
            return mixture.expert_weights, mixture.expert_outputs

        kept, slots = run(model, body)
        assert torch.equal(kept, weights), "rerouting renormalized the weights"
        expected = expert(moe.experts._module, target, weights[0, -1, 0] * x[0, -1])
        assert torch.allclose(slots[0, -1, 0], expected, atol=1e-5 * scale_of(expected))

    def test_expert_weights_are_the_routing_weights(self, model):
        index, moe = self.mixture(model)
        x, weights, indices = run(
            model,
            lambda m: (
                m.layers[index].mlp.input,
                m.layers[index].mlp.expert_weights,
                m.layers[index].mlp.expert_indices,
            ),
        )
        assert bool((weights >= 0).all())

        def body(m):
            mixture = m.layers[index].mlp
            mixture.expert_weights = mixture.expert_weights * 2
            return mixture.expert_outputs

        doubled = run(model, body)
        experts = moe.experts._module
        for slot in range(weights.shape[-1]):
            expected = expert(experts, int(indices[0, -1, slot]), 2 * weights[0, -1, slot] * x[0, -1])
            assert torch.allclose(doubled[0, -1, slot], expected, atol=1e-5 * scale_of(expected))

    def test_shared_expert_output_is_taken_before_the_in_place_add(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.shared_expert_output, mixture.routed_output, mixture.mlp_output

        shared, routed, output = run(model, body)
        assert torch.equal(shared + routed, output)
        assert not torch.equal(shared, output)

        def edited(m):
            mixture = m.layers[1].mlp
            mixture.shared_expert_output[:] = 0
            return mixture.routed_output, mixture.mlp_output

        routed, output = run(model, edited)
        assert torch.equal(output, routed), "an in-place edit of the shared expert's copy did not land"

    def test_in_place_routing_edits_land(self, model):
        clean = self.read_one(model, "mlp.routed_output", 1)

        def zeroed(m):
            mixture = m.layers[1].mlp
            mixture.expert_weights[:, -1, 0] = 0
            return mixture.routed_output

        routed = run(model, zeroed)
        assert torch.equal(routed[:, :-1], clean[:, :-1]) and not torch.equal(routed[:, -1], clean[:, -1])

        indices = self.read_one(model, "mlp.expert_indices", 1)
        target = next(e for e in range(model.layers[1].mlp.num_experts) if e not in set(indices[0, -1].tolist()))

        def in_place(m):
            mixture = m.layers[1].mlp
            mixture.expert_indices[:, -1, 0] = target
            return mixture.routed_output

        def assigned(m):
            mixture = m.layers[1].mlp
            new = mixture.expert_indices.clone()
            new[:, -1, 0] = target
            mixture.expert_indices = new
            return mixture.routed_output

        routed = run(model, in_place)
        assert torch.equal(routed, run(model, assigned)), "an in-place reroute differs from the assigned one"
        assert torch.equal(routed[:, :-1], clean[:, :-1]) and not torch.equal(routed[:, -1], clean[:, -1])

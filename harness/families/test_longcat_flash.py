"""LongCat-Flash, end to end: two latent-attention halves per block and a shortcut mixture with zero-computation experts."""

from contextlib import contextmanager
from unittest import mock

import pytest
import torch

from nnterp.components import LatentAttention
from nnterp_harness.release import family
from nnterp_harness.suite import (
    LLAMA_ROWS,
    NO_SHARED_EXPERT,
    PROMPT,
    ROUTED_EXPERTS,
    FamilySuite,
    child_names,
    run,
)

FAMILY = family("longcat_flash")

#: What a block adds to the stream, in forward order: the first attention, the mixture, the first dense MLP,
#: the second attention, the second dense MLP.
CONTRIBUTIONS = (
    ("self_attn", "attention_output"),
    ("mlp", "mlp_output"),
    ("dense_mlp", "mlp_output"),
    ("self_attn_2", "attention_output"),
    ("dense_mlp_2", "mlp_output"),
)


@contextmanager
def counting_blocks(model):
    """The config's `num_hidden_layers` reading the block count, for a suite check that reads it there; the cache,
    whose slots (one per attention, twice the blocks) are what the config's own count sizes, is off meanwhile."""
    config = model.config
    cached = config.use_cache
    config.use_cache = False
    try:
        with mock.patch.object(type(config), "num_hidden_layers", property(lambda self: self.num_layers)):
            yield
    finally:
        config.use_cache = cached


class TestLongcatFlash(FamilySuite):
    CHECKPOINT = "longcat_flash"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    REFUSES_IN_PLACE = ("attention_values",)

    def contribution_sources(self, block):
        children = child_names(block)
        return [(children[name], value) for name, value in CONTRIBUTIONS]

    # -- the block count -------------------------------------------------------------------

    def test_every_layer_is_renamed(self, model):
        config = model.config
        assert len(model.layers) == config.num_layers and config.num_hidden_layers == 2 * config.num_layers
        with counting_blocks(model):
            super().test_every_layer_is_renamed(model)

    def test_sizes_match_the_model(self, model):
        assert model.num_layers == model.config.num_layers
        with counting_blocks(model):
            super().test_sizes_match_the_model(model)

    # -- the block's modules ---------------------------------------------------------------

    def test_each_block_names_both_halves_and_the_mixture(self, model):
        for block in model.layers:
            native = block._module
            for name in ("self_attn", "self_attn_2"):
                assert isinstance(getattr(block, name), LatentAttention)
            for name in ("dense_mlp", "dense_mlp_2"):
                assert isinstance(getattr(block, name), FAMILY.Mlp)
            assert isinstance(block.mlp, FAMILY.Moe)
            # The forward still reaches the native lists, which hold the same modules.
            assert native.self_attn[1] is block.self_attn_2._module
            assert native.mlps[0] is block.dense_mlp._module
            assert native.input_layernorm[1] is block.input_layernorm_2._module
            assert native.post_attention_layernorm[1] is block.post_attention_layernorm_2._module
        assert [a._module.layer_idx for b in model.layers for a in (b.self_attn, b.self_attn_2)] == [0, 1, 2, 3]

    def test_the_mixture_and_the_first_dense_mlp_read_the_first_halfs_norm(self, model):
        def body(m):
            block = m.layers[1]
            return block.mlp_norm_output, block.mlp.input, block.dense_mlp.input

        normed, mixture_in, dense_in = run(model, body)
        assert torch.equal(normed, mixture_in) and torch.equal(normed, dense_in)

    # -- the mixture -------------------------------------------------------------------------

    def test_weights_are_the_scaled_softmax_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[0].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        assert logits.shape[-1] == model.config.n_routed_experts + model.config.zero_expert_num
        scores = torch.softmax(logits.float(), dim=-1).gather(-1, indices)
        assert torch.allclose(weights, scores * model.config.routed_scaling_factor, atol=1e-6)

    def test_the_prompt_reaches_both_kinds_of_expert(self, model):
        indices = run(model, lambda m: m.layers[0].mlp.expert_indices)
        routed = model.config.n_routed_experts
        assert bool((indices < routed).any()) and bool((indices >= routed).any())

    def test_a_zero_computation_slot_adds_the_weighted_token(self, model):
        routed = model.config.n_routed_experts
        zero = [routed, routed + 1]

        def body(m):
            mixture = m.layers[0].mlp
            x = mixture.input
            forced = torch.full((mixture.num_experts,), -10.0)
            forced[zero] = 10.0
            mixture.router_logits[:, -1] = forced
            return x, mixture.expert_indices, mixture.expert_weights, mixture.expert_outputs, mixture.output

        x, indices, weights, slots, output = run(model, body)
        assert sorted(indices[0, -1].tolist()) == zero
        expected = weights[0, -1].unsqueeze(-1) * x[0, -1]
        assert torch.allclose(slots[0, -1], expected, atol=1e-6)
        assert torch.allclose(output[0, -1], expected.sum(0), atol=1e-5)

    def test_expert_outputs_are_read_only(self, model):
        with pytest.raises(AttributeError, match="read-only"):
            with model.trace(PROMPT):
                model.layers[0].mlp.expert_outputs = torch.zeros(1)

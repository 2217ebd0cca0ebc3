"""Mistral 4, end to end: latent attention with position-scaled queries, a dense first block, then a grouped softmax
mixture with shared experts.

The type has no causal-LM class in the auto mapping; its image-text-to-text (and
pretraining) class is `Mistral4ForCausalLM`, a text model. The default task's dispatched
load falls back to that class, so the family contract runs there; its lazy load is
refused, since `AutoModelForCausalLM` has no Mistral 4 class. The image-text-to-text
load builds the class with the tokenizer in the processor's place, and that pipeline's
preprocessing cannot take a tokenizer's output, so that load runs no trace.
"""

import pytest
import torch

from nnterp import StandardizedTransformer
from nnterp.components import DerivedEProperty, block_values
from nnterp_harness import locate
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, PROMPT, ROUTED_EXPERTS, FamilySuite, run, ulp_close
from nnterp_harness.vision import assert_default_task_loads_agree

FAMILY = family("mistral4")


class TestMistral4(FamilySuite):
    CHECKPOINT = "mistral4"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    REFUSES_IN_PLACE = ("attention_values",)

    def test_order_holds_on_every_load(self, model, checkpoint):
        """`order()` and `rank()` agree on a fresh dispatched load and a model that has traced (no lazy load here)."""
        fresh = StandardizedTransformer(str(checkpoint), dispatch=True, attn_implementation="eager")
        run(model, lambda m: m.logits)
        model._order_cache.clear()
        for index, block in enumerate(model.layers):
            served = {
                name
                for name, host, attr in block_values(block)
                if attr.reason(host) is None and not isinstance(attr, DerivedEProperty)
            }
            assert set(model.order(index)) == served, f"block {index}: {sorted(served ^ set(model.order(index)))}"
            assert fresh.order(index) == model.order(index), f"block {index}: the fresh load orders differently"
            for name in served:
                assert fresh.rank(name, index) == model.rank(name, index), name

    def test_the_lazy_and_the_dispatched_default_task_loads_agree(self, checkpoint):
        # No causal-LM class maps the type; both loads build the class the checkpoint's architectures name.
        lazy = assert_default_task_loads_agree(checkpoint)
        assert type(lazy._module).__name__ == "Mistral4ForCausalLM"

    def test_the_default_task_builds_the_text_model(self, model):
        assert type(model._module).__name__ == "Mistral4ForCausalLM"
        assert not {"vision", "projector"} & set(model._aliases)

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, FAMILY.Moe)
        assert isinstance(model.layers[1].mlp, FAMILY.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}
        assert model.support(layer=1)["mlp.router_logits"] is None

    def test_weights_are_the_renormalized_scaled_softmax_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.softmax(logits.float(), dim=-1).gather(-1, indices)
        expected = scores / scores.sum(-1, keepdim=True) * model.config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)

    def test_choice_stays_within_the_groups_of_the_best_pairs(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_indices

        logits, indices = run(model, body)
        config = model.config
        groups = logits.softmax(-1).unflatten(-1, (config.n_group, -1)).topk(2, dim=-1).values.sum(-1)
        best = groups.topk(config.topk_group, dim=-1).indices
        chosen_groups = indices // (config.n_routed_experts // config.n_group)
        assert bool((chosen_groups.unsqueeze(-1) == best.unsqueeze(-2)).any(-1).all())

    def test_latent_attention_sizes(self, model):
        attn = model.layers[0].self_attn
        config = model.config
        assert attn.qk_head_dim == config.qk_nope_head_dim + config.qk_rope_head_dim
        assert attn.head_dim == config.v_head_dim
        assert attn.num_kv_heads == attn.num_heads == config.num_attention_heads

    def test_queries_past_the_original_context_are_scaled_up(self, model):
        rope = model.config.rope_parameters
        boundary = rope["original_max_position_embeddings"]
        ids = model.tokenizer(PROMPT * 20, return_tensors="pt")["input_ids"][:, : boundary + 2]
        assert ids.shape[1] == boundary + 2
        box = []
        with model.trace(ids):
            box.append(model.layers[0].self_attn.attention_queries.save())
        with model.trace(ids):
            model.layers[0].self_attn.q_b_proj.output  # noqa: B018 - reached before the queries below
            box.append(model.layers[0].self_attn.source.torch_cat_0.output.save())
        scaled, joined = box
        factor = 1 + rope["llama_4_scaling_beta"] * torch.log1p(torch.tensor(1.0))
        assert ulp_close(scaled[..., :boundary, :], joined[..., :boundary, :])
        assert torch.allclose(scaled[..., boundary:, :], joined[..., boundary:, :] * factor, atol=1e-6)


class TestMistral4ImageTextToText:
    """The image-text-to-text load: the same class and family, no tower, and a pipeline that runs nothing."""

    @pytest.fixture(scope="class")
    @classmethod
    def model(cls):
        path = locate.checkpoint_path("mistral4")
        return StandardizedTransformer(str(path), task="image-text-to-text", dispatch=True, attn_implementation="eager")

    def test_the_load_builds_the_text_model_with_a_tokenizer_as_processor(self, model):
        assert type(model._module).__name__ == "Mistral4ForCausalLM"
        assert model.family is FAMILY
        assert type(model.processor).__name__ == "TokenizersBackend"
        assert not {"vision", "projector"} & set(model._aliases)
        assert not [name for name in model.support() if name.startswith("vision")]

    def test_a_trace_is_refused_by_the_pipeline(self, model):
        with pytest.raises(TypeError, match=r"BatchEncoding.to\(\) got an unexpected keyword argument 'dtype'"):
            with model.trace(PROMPT):
                model.logits.save()

"""GLM-5, end to end: indexed latent attention shared across blocks, a dense first block, then a grouped sigmoid mixture."""

import inspect

import torch

from nnterp.components import LatentAttention
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("glm_moe_dsa")

#: Whether this release caches the latent and decompresses the keys and values after the cache, so the values reach
#: the interface as a split view that refuses an in-place edit; a release that caches the decompressed keys and
#: values (5.17) hands the interface the cache's own tensors, which take one.
ATTENTION_MODULE = next(module for module, envoy in FAMILY.ENVOYS.items() if envoy is LatentAttention)
SPLIT_VALUES = ".update(k_pass, k_rot" in inspect.getsource(ATTENTION_MODULE.forward)

#: A prompt longer than the indexer keeps keys per query.
LONG_PROMPT = "The Eiffel Tower is in Paris, and the Colosseum is in Rome."


class TestGlmMoeDsa(FamilySuite):
    CHECKPOINT = "glm_moe_dsa"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    MLP_WIDTH_KEY = "intermediate_size"
    REFUSES_IN_PLACE = ("attention_values",) if SPLIT_VALUES else ()

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, FAMILY.Moe)
        assert isinstance(model.layers[1].mlp, FAMILY.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}
        assert model.support(layer=1)["mlp.router_logits"] is None

    def test_each_query_attends_to_at_most_the_indexed_keys(self, model):
        keep = model.config.index_topk
        patterns = self.read_on_blocks(model, "self_attn.attention_probabilities", [0, 1], LONG_PROMPT)
        for pattern in patterns:
            n = pattern.shape[-1]
            assert n > keep
            kept = (pattern[0] > 0).sum(-1)  # [heads, queries]
            # Query i sees its i + 1 earlier keys until the indexer's budget runs out.
            expected = (torch.arange(n) + 1).clamp(max=keep)
            assert torch.equal(kept, expected.expand_as(kept))

    def test_a_skipped_first_block_hands_on_every_key(self, model):
        def body(m):
            m.skip_layers(0, 0)
            return m.layers[0].output[1], m.layers[1].self_attn.attention_probabilities

        chosen, pattern = run(model, body, LONG_PROMPT)
        n = pattern.shape[-1]
        assert torch.equal(chosen[0, -1].long(), torch.arange(n))
        assert bool((pattern[0, :, -1] > 0).all()), "the shared block still drops keys"

    def test_the_shared_block_reuses_the_first_blocks_choice(self, model):
        def body(m):
            return m.layers[0].output[1], m.layers[1].output[1]

        first, second = run(model, body, LONG_PROMPT)
        assert torch.equal(first, second)
        assert model.layers[1].self_attn._module.indexer is None

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = scores / (scores.sum(-1, keepdim=True) + 1e-20) * model.config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)

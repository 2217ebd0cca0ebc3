"""DeepSeek-V3.2, end to end: latent attention narrowed by the indexer, a dense first block, then a grouped sigmoid mixture."""

import inspect

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("deepseek_v32")

# Where the cache holds the compressed latent, the values are decompressed after it as a view out of
# one split, which torch refuses to edit in place; where it holds the decompressed keys and values,
# the attention is served the cache's own concatenation.
CACHES_LATENT = "update(k_pass" in inspect.getsource(FAMILY.DeepseekV32Attention.forward)


class TestDeepseekV32(FamilySuite):
    CHECKPOINT = "deepseek_v32"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    REFUSES_IN_PLACE = ("attention_values",) if CACHES_LATENT else ()

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, FAMILY.Moe)
        assert isinstance(model.layers[1].mlp, FAMILY.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}

    def test_each_query_attends_to_the_indexer_keys_only(self, model, clean):
        probabilities = run(model, lambda m: m.layers[0].self_attn.attention_probabilities)
        kept = (probabilities > 0).sum(-1)
        n = self.n_tokens(clean)
        assert n > model.config.index_topk
        expected = torch.arange(1, n + 1).clamp(max=model.config.index_topk)
        assert torch.equal(kept[0, 0], expected)

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = scores / scores.sum(-1, keepdim=True) * model.config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)

"""GPT-1 (`openai-gpt`), end to end: a post-LN block, its own attention arithmetic, no final norm, no cache."""

import torch

from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("openai-gpt")


class TestOpenAIGPT(FamilySuite):
    CHECKPOINT = "openai_gpt"
    FAMILY = FAMILY
    NATIVE = rows("transformer", "h", "tokens_embed", None, attn="attn", ln1=None, ln2="ln_1")
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = "ln_2"
    REFUSES_IN_PLACE_QKV = True
    # The keys and values are views out of the same split as the queries, with no cache to copy them.
    REFUSES_IN_PLACE = ("attention_keys", "attention_values")
    KEEPS_CACHE = False

    def test_the_mlp_is_four_times_the_stream(self, model):
        assert model.intermediate_size == 4 * model.hidden_size == model.layers[0].mlp.intermediate_size

    def test_the_causal_mask_is_minus_ten_thousand(self, model):
        scores = run(model, lambda m: m.layers[0].self_attn.attention_scores)
        future = torch.ones(scores.shape[-2:], dtype=torch.bool).triu(1)
        assert bool((scores[..., future] == -1e4).all()), "the future keys are not scored -1e4"

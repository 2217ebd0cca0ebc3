"""GPT-OSS, end to end: attention sinks, sliding-window blocks and a top-k softmax mixture with biased experts."""

import pytest
import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import LLAMA_ROWS, NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("gpt_oss")


class TestGptOss(FamilySuite):
    CHECKS = (SlidingWindowChecks,)
    CHECKPOINT = "gpt_oss"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}
    ATTENTION_SINK = True
    sinks: torch.Tensor | None = None

    @pytest.fixture(autouse=True)
    def _sinks(self, model):
        # Every block's sinks are drawn alike; the suite compares block 0's pattern with its scores.
        type(self).sinks = model.layers[0].self_attn._module.sinks.detach()

    def pattern_from_scores(self, scores):
        sink = self.sinks.to(scores.dtype).view(1, -1, 1, 1).expand(*scores.shape[:-1], 1)
        joined = torch.cat([scores, sink], dim=-1)
        return torch.softmax(joined - joined.max(-1, keepdim=True).values, dim=-1)[..., :-1]

    def test_the_pattern_is_the_softmax_with_the_sink_column_dropped(self, model):
        for index in range(len(model.layers)):
            sinks = model.layers[index].self_attn._module.sinks.detach()

            def body(m, index=index):
                a = m.layers[index].self_attn
                return a.attention_scores, a.attention_probabilities

            scores, pattern = run(model, body)
            joined = torch.cat([scores, sinks.view(1, -1, 1, 1).expand(*scores.shape[:-1], 1)], dim=-1)
            expected = torch.softmax(joined, dim=-1)[..., :-1]
            assert torch.allclose(pattern, expected, atol=1e-6)
            assert bool((pattern.sum(-1) < 1).all())

    def test_weights_are_the_softmax_of_the_top_logits(self, model):
        def body(m):
            mixture = m.layers[0].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        top, chosen = logits.topk(indices.shape[-1], dim=-1)
        assert torch.equal(indices, chosen)
        assert torch.allclose(weights, torch.softmax(top, dim=-1), atol=1e-6)

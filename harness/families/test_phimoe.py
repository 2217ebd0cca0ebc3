"""Phi-MoE (`PhimoeForCausalLM`), end to end: a sparse-mixer mixture between layer norms."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("phimoe")


class TestPhimoe(FamilySuite):
    CHECKPOINT = "phimoe"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}

    def test_weights_are_the_sparse_mixer_softmaxes(self, model):
        def body(m):
            mixture = m.layers[0].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        eps = model.config.router_jitter_noise
        # Round one: the best logit, weighted by a softmax over the logits near it.
        best, first = logits.max(-1, keepdim=True)
        kept = (best - logits) / logits.abs().clamp(min=best) <= 2 * eps
        one = torch.softmax(logits.masked_fill(~kept, float("-inf")), -1).gather(-1, first)
        # Round two: the same over the logits without the first choice.
        rest = logits.scatter(-1, first, float("-inf"))
        second_best, second = rest.max(-1, keepdim=True)
        kept = (second_best - logits) / logits.abs().clamp(min=second_best) <= 2 * eps
        two = torch.softmax(rest.masked_fill(~kept, float("-inf")), -1).gather(-1, second)
        assert torch.equal(indices, torch.cat([first, second], -1))
        assert torch.allclose(weights, torch.cat([one, two], -1), atol=1e-6)
        assert bool((weights < 1 - 1e-3).any()), "every weight is one: the checkpoint's router keeps a single logit"

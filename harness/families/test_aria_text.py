"""Aria's language model, end to end: a top-k-softmax mixture with shared experts on every block."""

import nnsight  # noqa: F401  - before any transformers modeling module
import pytest
import torch

from nnterp_harness.entries.aria_text import routing_unsupported
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("aria_text")

if reason := routing_unsupported():
    pytest.skip(reason, allow_module_level=True)


class TestAriaText(FamilySuite):
    CHECKPOINT = "aria_text"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)

    def test_weights_are_a_softmax_over_the_chosen_logits(self, model):
        def body(m):
            mixture = m.layers[0].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        top = logits.topk(model.config.moe_topk, dim=-1)
        assert torch.equal(indices, top.indices)
        assert torch.allclose(weights, torch.softmax(top.values, dim=-1), atol=1e-6)

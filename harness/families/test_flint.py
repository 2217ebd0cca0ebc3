"""Flint, end to end: sink attention, a dense full-attention block, then a sigmoid mixture with an ungated shared expert."""

import pytest
import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("flint")


class TestFlint(FamilySuite):
    CHECKS = (SlidingWindowChecks,)
    CHECKPOINT = "flint"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    MLP_WIDTH_KEY = "intermediate_size"
    ATTENTION_SINK = True
    sinks: torch.Tensor | None = None

    @pytest.fixture(autouse=True)
    def _sinks(self, model):
        # The suite compares the first attention block's pattern with its scores.
        type(self).sinks = model.layers[0].self_attn._module.sinks.detach()

    def pattern_from_scores(self, scores):
        sink = self.sinks.to(scores.dtype).view(1, -1, 1, 1).expand(*scores.shape[:-1], 1)
        return torch.softmax(torch.cat([scores, sink], dim=-1), dim=-1)[..., :-1]

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, FAMILY.Moe)
        assert isinstance(model.layers[1].mlp, FAMILY.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}

    def test_weights_are_the_renormalized_sigmoid_scores_of_the_top_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        top, chosen = torch.sigmoid(logits).topk(indices.shape[-1], dim=-1)
        assert torch.equal(indices, chosen)
        assert torch.allclose(weights, top / top.sum(-1, keepdim=True), atol=1e-6)

    def test_the_shared_expert_is_added_in_full(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.routed_output, mixture.shared_expert.output, mixture.mlp_output

        routed, shared, output = run(model, body)
        assert torch.equal(output, (routed + shared).reshape(output.shape))

    def test_the_full_attention_block_applies_no_rotary_embedding(self, model):
        def body(m):
            a = m.layers[0].self_attn
            return a.k_norm.output, a.attention_keys

        normed, keys = run(model, body)
        assert torch.equal(keys, normed.transpose(1, 2))

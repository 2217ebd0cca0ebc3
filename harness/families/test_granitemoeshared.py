"""Granite-MoE-Shared, end to end: Granite's scaled block with a top-k softmax mixture and a shared MLP beside it."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("granitemoeshared")


class TestGraniteMoeShared(FamilySuite):
    CHECKPOINT = "granitemoeshared"
    FAMILY = FAMILY
    NATIVE = {**LLAMA_ROWS, "layers.0.mlp": "model.layers.0.block_sparse_moe"}
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)

    def mixture_sum(self, mixture):
        # The block adds the mixture's output and its shared MLP's before scaling the sum.
        return mixture.parent.source.hidden_states_4.output

    def test_mlp_output_is_the_scaled_sum_of_routed_and_shared(self, model):
        multiplier = model.config.residual_multiplier
        assert multiplier != 1.0

        def body(m):
            block = m.layers[0]
            return block.mlp.routed_output, block.shared_mlp.output, block.mlp.mlp_output

        routed, shared, contribution = run(model, body)
        assert torch.equal(contribution, (routed + shared) * multiplier)

    def test_shared_expert_output_is_the_blocks_shared_mlp(self, model):
        def body(m):
            block = m.layers[0]
            return block.mlp.shared_expert_output, block.shared_mlp.output

        served, raw = run(model, body)
        assert torch.equal(served, raw)

    def test_logits_are_the_head_divided_by_logits_scaling(self, model):
        head, logits = run(model, lambda m: (m.lm_head_output, m.logits))
        assert torch.equal(logits, head / model.config.logits_scaling)

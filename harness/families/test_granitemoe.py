"""Granite-MoE, end to end: a top-k softmax mixture in a block that scales each sublayer's output."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("granitemoe")


class TestGraniteMoe(FamilySuite):
    CHECKPOINT = "granitemoe"
    FAMILY = FAMILY
    NATIVE = {**LLAMA_ROWS, "layers.0.mlp": "model.layers.0.block_sparse_moe"}
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}

    def test_mlp_output_is_the_scaled_routed_output(self, model):
        multiplier = model.config.residual_multiplier
        assert multiplier != 1.0

        def body(m):
            mixture = m.layers[0].mlp
            return mixture.routed_output, mixture.mlp_output

        routed, contribution = run(model, body)
        assert torch.equal(contribution, routed * multiplier)

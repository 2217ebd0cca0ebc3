"""Qwen2-MoE, end to end: a softmax mixture with a sigmoid-gated shared expert."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("qwen2_moe")


class TestQwen2Moe(FamilySuite):
    CHECKPOINT = "qwen2_moe"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

    def test_shared_expert_output_is_the_gated_shared_expert(self, model):
        def body(m):
            mixture = m.layers[0].mlp
            return mixture.shared_expert.output, mixture.shared_expert_gate.output, mixture.shared_expert_output

        shared, gate, gated = run(model, body)
        assert torch.equal(gated[0], (torch.sigmoid(gate) * shared))

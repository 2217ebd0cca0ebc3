"""Mellum (`MellumForCausalLM`), end to end: sliding-window blocks, a dense block and softmax mixture blocks."""

import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("mellum")


class TestMellum(FamilySuite):
    CHECKS = (SlidingWindowChecks,)
    CHECKPOINT = "mellum"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    # The dense block's MLP has no such value and the mixture blocks have no shared expert: both reasons say "no shared".
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, "mlp.shared_expert_output": "no shared"}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}

    def test_mlp_layer_types_decide_the_mixture_blocks(self, model):
        kinds = [isinstance(block.mlp, FAMILY.Moe) for block in model.layers]
        assert kinds == [kind == "sparse" for kind in model.config.mlp_layer_types] == [False, True, True]
        assert model.support(layer=0)["mlp.router_logits"] == "the mlp on this block has no router_logits"
        assert model.support(layer=1)["mlp.router_logits"] is None

    def test_weights_are_the_softmax_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        probabilities = torch.softmax(logits.float(), -1)
        top, chosen = probabilities.topk(model.config.num_experts_per_tok, -1)
        assert torch.equal(indices, chosen)
        assert torch.allclose(weights, top, atol=1e-6)

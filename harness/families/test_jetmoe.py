"""JetMoE, end to end: a mixture of attention heads and a mixture MLP that adds a bias after the routed sum."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite, first_tensor, rows, run

FAMILY = family("jetmoe")


class TestJetMoe(FamilySuite):
    CHECKPOINT = "jetmoe"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", attn="self_attention")
    EXPECTED_UNAVAILABLE = {
        **ROUTED_EXPERTS,
        **NO_SHARED_EXPERT,
        "mlp.expert_outputs": "sorted by expert",
    }
    MOE_UNAVAILABLE = {
        "shared_expert_output": "this mixture has no shared expert",
        "expert_outputs": "sorted by expert",
    }
    KV_HEADS_EXPANDED = True

    def mixture_sum(self, mixture):
        # The mixture adds its own bias after the routed sum.
        return first_tensor(mixture.output) - mixture._module.bias

    def test_weights_are_a_softmax_over_the_chosen_logits(self, model):
        def body(m):
            mixture = m.layers[0].mlp
            return mixture.router_logits, mixture.expert_indices, mixture.expert_weights

        logits, indices, weights = run(model, body)
        top = logits.topk(model.config.num_experts_per_tok, dim=-1)
        assert torch.equal(indices, top.indices)
        assert torch.allclose(weights, torch.softmax(top.values, dim=-1), atol=1e-6)

    def test_mlp_output_is_the_routed_sum_plus_the_bias(self, model):
        routed, output = run(model, lambda m: (m.layers[0].mlp.routed_output, m.layers[0].mlp.mlp_output))
        assert torch.equal(output, routed + model.layers[0].mlp._module.bias)

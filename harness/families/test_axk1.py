"""A.X K1, end to end: DeepSeek-V3's latent attention and mixture, the mixture's sum normed before it returns."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("axk1")


class TestAXK1(FamilySuite):
    CHECKPOINT = "axk1"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    REFUSES_IN_PLACE = ("attention_values",)

    def mixture_sum(self, mixture):
        # Routed plus shared is what the mixture's own norm receives.
        return mixture.post_mlp_layernorm.input

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, FAMILY.Moe)
        assert isinstance(model.layers[1].mlp, FAMILY.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}

    def test_mlp_output_is_the_normed_sum(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.routed_output, mixture.shared_expert_output, mixture.mlp_output

        routed, shared, output = run(model, body)
        norm = model.layers[1].mlp.post_mlp_layernorm._module
        assert torch.allclose(output, norm(routed + shared), atol=1e-5)
        assert not torch.allclose(output, routed + shared, atol=1e-3)

"""Cohere 2 MoE, end to end: Cohere's parallel block, a dense first block, then a top-k softmax mixture with a shared expert."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("cohere2_moe")


class TestCohere2Moe(FamilySuite):
    CHECKPOINT = "cohere2_moe"
    FAMILY = FAMILY
    NATIVE = {key: value for key, value in LLAMA_ROWS.items() if key != "layers.0.post_attention_layernorm"}
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, "layer_mid": "a parallel block"}
    MLP_NORM = "input_layernorm"
    MLP_NORM_BEFORE_ATTENTION = True
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, FAMILY.Moe)
        assert isinstance(model.layers[1].mlp, FAMILY.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}

    def test_weights_are_the_softmax_over_the_top_logits(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        top = logits.topk(2, dim=-1)
        assert torch.equal(indices, top.indices)
        assert torch.allclose(weights, torch.softmax(top.values.float(), dim=-1), atol=1e-6)
        assert model.layers[1].mlp.SCORING == "topk_softmax"

    def test_logits_are_the_scaled_head(self, model):
        head, logits = run(model, lambda m: (m.lm_head_output, m.logits))
        scale = model.config.logit_scale
        assert scale != 1.0 and torch.equal(logits, head * scale)

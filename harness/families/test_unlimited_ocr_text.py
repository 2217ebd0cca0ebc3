"""unlimited_ocr_text: its text family's suite on the `unlimited_ocr` wrapper checkpoint, beside the wrapper's `test_unlimited_ocr.py`.

No causal-LM class of the auto mapping builds `unlimited_ocr_text` alone, so the wrapper checkpoint serves its text stack.
"""

# ruff: noqa: E402  - the imports follow the skip, which must run first on a release without the type

from nnterp_harness.release import skip_unless_known

skip_unless_known("unlimited_ocr")

import torch
from test_unlimited_ocr import FAMILY, PROCESSOR

from nnterp.components import Mlp
from nnterp.families import deepseek_ocr2_text
from nnterp_harness.suite import (
    ROUTED_EXPERTS,
    FamilySuite,
    rows,
    run,
)


class TestUnlimitedOcrText(FamilySuite):
    CHECKPOINT = "unlimited_ocr"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (Mlp,)

    def test_the_block_types_follow_mlp_layer_types(self, model):
        config = model.config.text_config
        assert config.mlp_layer_types == ["dense", "sparse"]
        assert config.layer_types == ["reference_sliding_attention"] * 2
        assert not isinstance(model.layers[0].mlp, deepseek_ocr2_text.Moe)
        assert isinstance(model.layers[1].mlp, deepseek_ocr2_text.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}

    def test_weights_are_the_scaled_softmax_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.softmax(logits.float(), dim=-1)
        assert torch.equal(indices.sort(-1).values, scores.topk(indices.shape[-1], dim=-1).indices.sort(-1).values)
        expected = scores.gather(-1, indices) * model.config.text_config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-6)

    def test_the_attention_is_plain_multi_head(self, model):
        attn = model.layers[0].self_attn
        config = model.config.text_config
        assert attn.num_heads == attn.num_kv_heads == config.num_attention_heads
        assert attn.head_dim == config.hidden_size // config.num_attention_heads

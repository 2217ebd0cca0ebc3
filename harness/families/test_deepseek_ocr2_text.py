"""DeepSeek-OCR 2's text stack (`deepseek_ocr2_text`), held to `FamilySuite` on the `deepseek_ocr2` wrapper checkpoint; test_deepseek_ocr2.py holds the tower."""

import pytest
import torch

from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows, run
from nnterp_harness.vision import QUESTION

skip_unless_known("deepseek_ocr2")
FAMILY = family("deepseek_ocr2")
TEXT = family("deepseek_ocr2_text")


def _text_refused() -> str | None:
    """Why the checkpoint's processor refuses a prompt without an image on this release, or `None`."""
    from transformers import AutoProcessor

    processor = AutoProcessor.from_pretrained(locate.checkpoint_path("deepseek_ocr2"))
    try:
        processor(text=QUESTION, return_tensors="pt")
    except ValueError as error:
        return f"DeepseekOcr2Processor refuses a prompt without an image on this release: {error}"
    return None


#: An older release's processor takes no text alone, so the text suite has no prompt to run there.
TEXT_REFUSED = _text_refused()


@pytest.mark.skipif(TEXT_REFUSED is not None, reason=str(TEXT_REFUSED))
class TestDeepseekOcr2Text(FamilySuite):
    CHECKPOINT = "deepseek_ocr2"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text"}
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (TEXT.Mlp,)

    def test_the_block_types_follow_mlp_layer_types(self, model):
        kinds = model.config.text_config.mlp_layer_types
        assert kinds == ["dense", "sparse"]
        assert not isinstance(model.layers[0].mlp, TEXT.Moe)
        assert isinstance(model.layers[1].mlp, TEXT.Moe)
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

"""Cosmos3 Omni, end to end: Qwen3-VL's architecture under its own wrapper classes, the packed Qwen3 ViT with
per-image attention, its merger as projector, and two deepstack taps re-adding tower blocks 0 and 1 to the image
rows after text blocks 0 and 1; then Qwen3-VL's text stack on the same checkpoint.

transformers maps no processor to `cosmos3_omni`; the checkpoint names Qwen3-VL's, which the hub model uses.
"""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.towers import NO_TAP, DeepstackChecks, DeepstackTextChecks, MergerChecks, QwenVisionSuite
from nnterp_harness.vision import processor_of

skip_unless_known("cosmos3_omni")
FAMILY = family("cosmos3_omni")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("cosmos3_omni", "Qwen3VLProcessor")}


class TestCosmos3OmniVision(QwenVisionSuite):
    CHECKS = (DeepstackChecks, MergerChecks)
    CHECKPOINT = "cosmos3_omni"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_the_scatter_is_in_the_cosmos3_model(self, model):
        assert type(model._module.model).__name__ == "Cosmos3OmniModel"
        assert type(model.model).__name__ == "ImageScatter"


class TestCosmos3OmniText(FamilySuite):
    CHECKS = (DeepstackTextChecks,)
    CHECKPOINT = "cosmos3_omni"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    EXPECTED_UNAVAILABLE = NO_TAP

"""LLaVA-OneVision over Qwen2, end to end: a SigLIP tower on each image's crops, the tiles unpadded with newline rows."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import NewlineRowsChecks, VisionSuite, processor_of, prompt_for

skip_unless_known("llava_onevision")
FAMILY = family("llava_onevision")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = processor_of("llava_onevision", "LlavaOnevisionProcessor")


class TestLlavaOnevisionVision(VisionSuite):
    CHECKS = (NewlineRowsChecks,)
    CHECKPOINT = "llava_onevision"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_a_several_image_sample_is_not_cropped(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=[self.images(0, 1)]):
            mask = model.vision.image_token_mask.save()
            patches = model.vision.layers[0].layer_output.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((mask, patches, projected, features))
        mask, patches, projected, features = box[0]
        newline = model._module.model.image_newline
        assert patches.shape[0] == 2
        assert int(mask.sum()) == features.shape[0] == 2 * (projected.shape[1] + 1)
        per_image = features.reshape(2, -1, features.shape[-1])
        assert torch.equal(per_image[:, :-1], projected)
        assert torch.equal(per_image[:, -1], newline.expand(2, -1))


class TestLlavaOnevisionText(FamilySuite):
    CHECKPOINT = "llava_onevision"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

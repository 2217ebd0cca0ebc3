"""LightOnOCR over Qwen3, end to end: a packed Pixtral tower, a 2x2 patch merger, the scatter in the model."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("lighton_ocr")
FAMILY = family("lighton_ocr")


class TestLightOnOcrVision(VisionSuite):
    CHECKPOINT = "lighton_ocr"
    FAMILY = FAMILY
    IMAGE_SIZE_FIXED = False

    def test_the_projector_merges_the_last_block(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            features = model.vision.image_features.save()
            box.append((last, tower, received, features))
        last, tower, received, features = box[0]
        merge = model.config.spatial_merge_size
        assert torch.equal(tower, last)
        assert torch.equal(received, last[0])
        assert features.shape[0] * merge**2 == received.shape[0]

    def test_two_packed_images_attend_each_within_itself(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            box.append(model.vision.layers[0].self_attn.attention_probabilities.save())
        pattern = box[0].detach()
        half = pattern.shape[-1] // 2
        assert pattern.shape[0] == 1
        assert float(pattern[..., :half, half:].abs().max()) == 0.0
        assert float(pattern[..., half:, :half].abs().max()) == 0.0
        assert float(pattern[..., :half, :half].min()) > 0.0


class TestLightOnOcrText(FamilySuite):
    CHECKPOINT = "lighton_ocr"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text"}

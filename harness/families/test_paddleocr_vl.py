"""PaddleOCR-VL, end to end: a packed NaViT with per-image attention, merged 2x2 by the projector."""

import torch

from nnterp.components import QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE, PatchwiseVision
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("paddleocr_vl")
FAMILY = family("paddleocr_vl")
#: Built from the checkpoint's parts: without torchvision an older release's auto image processor cannot load.
LOAD_KWARGS = {
    "task": "image-text-to-text",
    "processor": processor_of("paddleocr_vl", "PaddleOCRVLProcessor", video_slot=False),
}


class TestPaddleOCRVLVision(VisionSuite):
    CHECKPOINT = "paddleocr_vl"
    FAMILY = FAMILY
    TOWER_ENVOYS = (PatchwiseVision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_the_projector_merges_the_normed_tower_output(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.inputs.save()
            features = model.vision.image_features.save()
            box.append((last, tower, received, features))
        last, tower, received, features = box[0]
        assert torch.equal(received[0][0], tower[0])
        assert not torch.equal(tower, last)
        # Each image token is one 2x2 group of patches.
        assert features.shape[0] * 4 == tower.shape[1]

    def test_patch_embeddings_are_one_row(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            box.append((model.vision.patch_embeddings.save(), model.vision.layers[0].layer_input.save()))
        patches, first = box[0]
        assert patches.shape == first.shape == (1, first.shape[1], model.vision.vision_hidden_size)

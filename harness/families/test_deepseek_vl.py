"""DeepSeek-VL over Llama, end to end: a SigLIP tower, a two-layer aligner, the scatter in the model."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("deepseek_vl")
FAMILY = family("deepseek_vl")


class TestDeepseekVLVision(VisionSuite):
    CHECKPOINT = "deepseek_vl"
    FAMILY = FAMILY

    def test_the_aligner_projects_every_patch(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((tower, received, projected, features))
        tower, received, projected, features = box[0]
        assert torch.equal(received, tower)
        assert projected.shape[:2] == tower.shape[:2]
        assert torch.equal(projected.reshape(features.shape), features)


class TestDeepseekVLText(FamilySuite):
    CHECKPOINT = "deepseek_vl"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text"}

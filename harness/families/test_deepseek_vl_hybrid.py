"""DeepSeek-VL hybrid over Llama, end to end: a SigLIP tower beside a SAM tower, an aligner joining both, the scatter in the model."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, moved, rows
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("deepseek_vl_hybrid")
FAMILY = family("deepseek_vl_hybrid")


class TestDeepseekVLHybridVision(VisionSuite):
    CHECKPOINT = "deepseek_vl_hybrid"
    FAMILY = FAMILY

    def test_the_aligner_joins_both_towers_per_patch(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            tower = model.vision.tower_output.save()
            low, high = model.projector.inputs[0]
            low, high = low.save(), high.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((tower, low, high, projected, features))
        tower, low, high, projected, features = box[0]
        assert torch.equal(low, tower)
        assert high.shape[:2] == tower.shape[:2] and high.shape[-1] != tower.shape[-1]
        assert torch.equal(projected.reshape(features.shape), features)

    def test_the_high_resolution_tower_moves_the_features(self, model):
        clean = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.model.high_res_vision_model.output[0][:] = 0
            box.append(model.vision.image_features.save())
        assert moved(box[0], clean["features"])


class TestDeepseekVLHybridText(FamilySuite):
    CHECKPOINT = "deepseek_vl_hybrid"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text"}

"""Llava over Qwen2, end to end: a SigLIP tower, a two-layer projector, the scatter in `LlavaModel`."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("llava")
FAMILY = family("llava")


class TestLlavaVision(VisionSuite):
    CHECKPOINT = "llava"
    FAMILY = FAMILY

    def test_projector_reads_the_last_block_before_the_norm(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            features = model.vision.image_features.save()
            box.append((last, tower, received, features))
        last, tower, received, features = box[0]
        assert torch.equal(received, last) and not torch.equal(received, tower)

    def test_a_tower_output_edit_never_reaches_the_text(self, model):
        clean = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.vision.tower_output[:] = 0
            box.append(model.vision.image_features.save())
        assert torch.equal(box[0], clean["features"])


class TestLlavaText(FamilySuite):
    CHECKPOINT = "llava"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text"}

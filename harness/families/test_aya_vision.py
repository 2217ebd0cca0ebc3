"""Aya Vision over Cohere 2, end to end: a SigLIP tower, a pixel-shuffle SwiGLU projector, the scatter in the model."""

import torch

from nnterp_harness.parallel import OneNormParallelChecks
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("aya_vision")
FAMILY = family("aya_vision")


class TestAyaVisionVision(VisionSuite):
    CHECKPOINT = "aya_vision"
    FAMILY = FAMILY

    def test_the_projector_shuffles_the_patches_down(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, received, projected, features))
        last, received, projected, features = box[0]
        factor = model.config.downsample_factor
        assert torch.equal(received, last)
        assert features.shape[0] * factor**2 == received.shape[1]
        assert torch.equal(projected.reshape(features.shape), features)

    def test_the_lens_is_unscaled_on_the_wrapper(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            lens = model.project_on_vocab(model.layers[-1].layer_output).save()
            box.append((lens, model.logits.save()))
        lens, logits = box[0]
        assert model.config.text_config.logit_scale != 1.0
        assert torch.equal(lens, logits)


class TestAyaVisionText(FamilySuite):
    CHECKS = (OneNormParallelChecks,)
    CHECKPOINT = "aya_vision"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm", ln2=None)
    EXACT_IDENTITY = True
    LOAD_KWARGS = {"task": "image-text-to-text"}

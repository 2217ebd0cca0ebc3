"""Janus over Llama, end to end: a SigLIP-built tower normed at its end, an MLP aligner, the scatter in the model."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("janus")
FAMILY = family("janus")


class TestJanusVision(VisionSuite):
    CHECKPOINT = "janus"
    FAMILY = FAMILY

    def test_the_aligner_reads_the_normed_patches(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, tower, received, projected, features))
        last, tower, received, projected, features = box[0]
        norm = model.vision.norm._module
        assert torch.equal(received, tower) and not torch.equal(tower, last)
        assert torch.allclose(norm(last), tower)
        assert received.shape[1] == model.processor.num_image_tokens
        assert torch.equal(projected.reshape(features.shape), features)


class TestJanusText(FamilySuite):
    CHECKPOINT = "janus"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text"}

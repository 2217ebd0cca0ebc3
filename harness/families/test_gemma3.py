"""Gemma 3, end to end: a SigLIP tower pooled by the projector, on Gemma 3's sandwich text blocks.

The default task builds the same `Gemma3ForConditionalGeneration` with no processor: a
text model served by `gemma3`, with a `vision` that no image reaches.
"""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows, ulp_close
from nnterp_harness.vision import QUESTION, VisionSuite, prompt_for

skip_unless_known("gemma3")
FAMILY = family("gemma3")


class TestGemma3Vision(VisionSuite):
    CHECKPOINT = "gemma3"
    FAMILY = FAMILY

    def test_the_projector_pools_the_tower_output(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            features = model.vision.image_features.save()
            box.append((tower, received, features))
        tower, received, features = box[0]
        assert torch.equal(received, tower)
        assert features.shape[0] == model.config.mm_tokens_per_image < tower.shape[1]

    def test_the_default_task_runs_the_wrappers_text_model(self, model, text_only):
        assert type(text_only._module).__name__ == "Gemma3ForConditionalGeneration"
        assert text_only.family is FAMILY
        box = []
        with model.trace(QUESTION):
            box.append(model.logits.save())
        with text_only.trace(QUESTION):
            box.append(text_only.logits.save())
        assert ulp_close(box[0], box[1])


class TestGemma3Text(FamilySuite):
    CHECKPOINT = "gemma3"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    MLP_NORM = "pre_feedforward_layernorm"
    LOAD_KWARGS = {"task": "image-text-to-text"}


class TestGemma3DefaultTask(TestGemma3Text):
    """The default-task load, a text model: the whole family contract on the same text stack."""

    LOAD_KWARGS = {}

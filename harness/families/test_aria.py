"""Aria, end to end: Idefics 3's tower, a projector of learned queries cross-attending to the patches, on Aria's
mixture text model; the scatter in `AriaModel`."""

import nnsight  # noqa: F401  - before any transformers modeling module
import pytest
import torch

from nnterp_harness.entries.aria_text import routing_unsupported
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("aria")
FAMILY = family("aria")

if reason := routing_unsupported():
    pytest.skip(reason, allow_module_level=True)

#: Built from its parts: without torchvision an older release cannot load the saved image processor.
PROCESSOR = processor_of("aria", "AriaProcessor", video_slot=False)


class TestAriaVision(VisionSuite):
    CHECKPOINT = "aria"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_projector_reads_the_last_block_before_the_norm(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            normed = model.vision.norm.output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            box.append((last, normed, tower, received))
        last, normed, tower, received = box[0]
        assert torch.equal(normed, tower)
        assert torch.equal(received, last) and not torch.equal(received, tower)

    def test_a_tower_output_edit_never_reaches_the_text(self, model):
        clean = self.clean(model)
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.vision.tower_output[:] = 0
            box.append(model.vision.image_features.save())
        assert torch.equal(box[0], clean["features"])

    def test_features_are_the_queries_of_each_image(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((received, projected, features))
        received, projected, features = box[0]
        queries = model._module.config.projector_patch_to_query_dict[received.shape[1]]
        assert projected.shape == (2, queries, model.hidden_size)
        assert torch.equal(projected.reshape(-1, model.hidden_size), features)


class TestAriaText(FamilySuite):
    CHECKPOINT = "aria"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)

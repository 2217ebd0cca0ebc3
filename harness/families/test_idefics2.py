"""Idefics 2 over Mistral, end to end: a SigLIP-built tower, a perceiver-resampler connector, the scatter in a helper call."""

import torch

from nnterp.components.vision import scatter_call
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("idefics2")
FAMILY = family("mistral")
#: Built from its parts: transformers 5.17 cannot load the saved image processor without torchvision.
PROCESSOR = processor_of("idefics2", "Idefics2Processor", video_slot=False)


class TestIdefics2Vision(VisionSuite):
    CHECKPOINT = "idefics2"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_features_are_read_at_the_helper_call(self, model):
        assert scatter_call(model) == ("model.source.self_inputs_merger_0", "image_hidden_states")
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((projected, features))
        projected, features = box[0]
        assert projected.shape[0] == 2
        assert torch.equal(projected.reshape(-1, projected.shape[-1]), features)


class TestIdefics2Text(FamilySuite):
    CHECKPOINT = "idefics2"
    FAMILY = FAMILY
    NATIVE = rows("model.text_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

"""Video-LLaVA over Llama, end to end: a CLIP image tower (CLS dropped), a projector, the scatter in the model."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("video_llava")
FAMILY = family("video_llava")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = processor_of("video_llava", "VideoLlavaProcessor")


class TestVideoLlavaVision(VisionSuite):
    CHECKPOINT = "video_llava"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_the_projector_reads_the_image_tower_without_cls(self, model):
        calls = []
        handle = model._module.model.video_tower.register_forward_hook(lambda *_: calls.append(1))
        try:
            box = []
            with model.trace(prompt_for(model), images=self.images(0)):
                last = model.vision.layers[-1].layer_output.save()
                received = model.projector.input.save()
                box.append((last, received))
        finally:
            handle.remove()
        last, received = box[0]
        assert model.vision._module is model._module.model.image_tower
        assert torch.equal(received, last[:, 1:])
        assert not calls


class TestVideoLlavaText(FamilySuite):
    CHECKPOINT = "video_llava"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

"""ViP-LLaVA over Llama, end to end: a CLIP tower, a projector fed several blocks' streams, the scatter in the model."""

import torch

from nnterp.components import Vision
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("vipllava")
FAMILY = family("vipllava")


class TestVipLlavaVision(VisionSuite):
    CHECKPOINT = "vipllava"
    FAMILY = FAMILY

    def test_projector_joins_the_blocks_without_cls(self, model):
        layers = model.config.vision_feature_layers
        assert len(layers) == 2
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            streams = [block.layer_output.save() for block in model.vision.layers]
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            box.append((streams, tower, received))
        streams, tower, received = box[0]
        patches = (model.vision.image_size // model.vision.patch_size) ** 2
        # The CLS token first on the patch axis; the projector receives the patches only.
        assert streams[0].shape[1] == patches + 1
        assert torch.equal(received, torch.cat([streams[index][:, 1:] for index in layers], dim=-1))
        assert torch.equal(tower, streams[-1])

    def test_the_pooled_norm_is_not_the_tower_norm(self, model):
        assert type(model.vision) is Vision
        assert "norm" not in model.vision._aliases


class TestVipLlavaText(FamilySuite):
    CHECKPOINT = "vipllava"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text"}

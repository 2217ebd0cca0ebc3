"""Qwen2.5-VL, end to end: the packed Qwen2.5 ViT with window attention, its merger reversing the window order."""

import torch

from nnterp.components import QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("qwen2_5_vl")
FAMILY = family("qwen2_5_vl_text")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("qwen2_5_vl", "Qwen2_5_VLProcessor")}


class TestQwen2_5VLVision(VisionSuite):
    CHECKPOINT = "qwen2_5_vl"
    FAMILY = FAMILY
    TOWER_ENVOYS = (QwenVision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_the_tower_keeps_the_window_order(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            patches = model.vision.patch_embeddings.save()
            first = model.vision.layers[0].layer_input.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((patches, first, received, projected, features))
        patches, first, received, projected, features = box[0]
        # Block 0 reads the patches reordered into windows, and the merger's output is put back.
        assert not torch.equal(patches, first)
        assert torch.equal(patches.sort(dim=1).values, first.sort(dim=1).values)
        assert not torch.equal(projected, features)
        assert torch.equal(projected.sort(dim=0).values, features.sort(dim=0).values)


class TestQwen2_5VLText(FamilySuite):
    CHECKPOINT = "qwen2_5_vl"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS

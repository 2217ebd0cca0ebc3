"""HunYuanVL, end to end: a packed ViT with per-image attention, its patch merger as projector inside the tower."""

import torch

from nnterp.components.hunyuan_vision import HunyuanVision
from nnterp.components.vision import PER_IMAGE, MiniCPMVisionAttention, VisionLayer, VisionMlp
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import PerImageHeadsChecks
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("hunyuan_vl")

FAMILY = family("hunyuan_vl")
#: Built from its parts: transformers 5.20 cannot load the saved image processor without torchvision.
PROCESSOR = processor_of("hunyuan_vl", "HunYuanVLProcessor", video_slot=False)


class TestHunyuanVLVision(VisionSuite):
    CHECKS = (PerImageHeadsChecks,)
    CHECKPOINT = "hunyuan_vl"
    FAMILY = FAMILY
    TOWER_ENVOYS = (HunyuanVision, VisionLayer, MiniCPMVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_patch_embeddings_are_one_row_of_patches(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            patches = model.vision.patch_embeddings.save()
            stream = model.vision.layers[0].layer_input.save()
            box.append((patches, stream))
        patches, stream = box[0]
        assert patches.shape == stream.shape
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.vision.patch_embeddings[:] = 0
            box.append((model.vision.patch_embed.output.save(), model.vision.layers[0].layer_input.save()))
        native, edited = box[0]
        # The write lands on the convolution's output; the position embedding is still added after it.
        assert float(native.detach().abs().max()) == 0.0
        assert torch.allclose(edited, stream - patches, atol=1e-6)

    def test_the_merger_runs_inside_the_tower_per_image(self, model):
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            last = model.vision.layers[-1].layer_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            tower = model.vision.tower_output.save()
            features = model.vision.image_features.save()
            box.append((last, received, projected, tower, features))
        last, received, projected, tower, features = box[0]
        assert torch.equal(tower, last)
        # The merger's first call takes the first image's patches and returns its image tokens, begin to end.
        assert torch.equal(received, last[:, : last.shape[1] // 2])
        assert projected.shape[1] * 2 == features.shape[0]
        assert torch.equal(projected[0], features[: projected.shape[1]])

"""HY-V4-VL, end to end: HunYuanVL's packed ViT with per-image attention, its patch merger as projector inside the
tower, on HY-V4's hyper-connection text model with a gated sink latent attention and a mixture."""

import torch

from nnterp.components.hunyuan_vision import HunyuanVision
from nnterp.components.vision import PER_IMAGE, MiniCPMVisionAttention, VisionLayer, VisionMlp
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("hy_v4_vl")
FAMILY = family("hy_v4_vl")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("hy_v4_vl", "HYV4VLProcessor")}


class TestHyV4VLVision(VisionSuite):
    CHECKPOINT = "hy_v4_vl"
    FAMILY = FAMILY
    TOWER_ENVOYS = (HunyuanVision, VisionLayer, MiniCPMVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def one_stream(self, first):
        return first[:, :, 0]

    def test_every_stream_enters_with_the_image(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(model.layers[0].layer_input.save())
        first = box[0]
        assert first.shape[2] == model.config.get_text_config().hc_mult > 1
        assert torch.equal(first[:, :, 0], first[:, :, 1])

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
        # The merger's first call takes the first image's patches and returns its image tokens, a newline per row.
        assert torch.equal(received, last[:, : last.shape[1] // 2])
        assert projected.shape[1] * 2 == features.shape[0]
        assert torch.equal(projected[0], features[: projected.shape[1]])
        newline = model.projector._module.image_newline
        side = int((last.shape[1] // 2) ** 0.5) // model.vision.tower_config.spatial_merge_size
        rows_ = projected[0].reshape(side, side + 1, -1)
        assert torch.equal(rows_[:, side], newline.expand(side, -1))

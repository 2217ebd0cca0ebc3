"""LFM2-VL over LFM2, end to end: a SigLIP2 NaFlex tower, a pixel-unshuffle projector, the hybrid text model."""

import numpy as np
import torch

from nnterp.components import VisionAttention, VisionLayer, VisionMlp
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.short_convolution import WINDOW_UNAVAILABLE
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("lfm2_vl")
FAMILY = family("lfm2_vl")
from nnterp_harness.entries.lfm2_vl import IMAGE_TOKENS, SIDE, lfm2_vl_processor  # noqa: E402 - after the skip

#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = lfm2_vl_processor()


class TestLfm2VlVision(VisionSuite):
    CHECKPOINT = "lfm2_vl"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.NaFlexVision, VisionLayer, VisionAttention, VisionMlp)
    IMAGE_SIDE = SIDE
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_tower_output_is_the_final_norm_of_the_last_block(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            normed = model.vision.norm.output.save()
            tower = model.vision.tower_output.save()
            box.append((last, normed, tower))
        last, normed, tower = box[0]
        grid = (SIDE // model.vision.patch_size) ** 2
        assert tower.shape == (1, grid, model.vision.vision_hidden_size)
        assert torch.equal(tower, normed) and not torch.equal(tower, last)

    def test_the_projector_unshuffles_2x2_groups_into_the_features(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((tower, received, projected, features))
        tower, received, projected, features = box[0]
        side = SIDE // model.vision.patch_size
        # The projector takes the patch grid laid out by rows; its 2x2 groups are the image tokens.
        assert received.shape[-1] == tower.shape[-1] and received.numel() == tower.numel()
        assert torch.equal(received.reshape(-1, tower.shape[-1]).sort(0).values, tower[0].sort(0).values)
        assert features.shape == (IMAGE_TOKENS, model.hidden_size) and IMAGE_TOKENS * 4 == side * side
        assert torch.equal(projected.reshape(features.shape), features)

    def test_an_image_of_another_shape_keeps_its_own_grid(self, model):
        # NaFlex: a tall image keeps its aspect, and the tower resamples its position table to that grid.
        from PIL import Image

        tall = Image.fromarray((np.random.RandomState(2).rand(2 * SIDE, SIDE // 2, 3) * 255).astype("uint8"))
        box = []
        with model.trace(prompt_for(model), images=[tall]):
            inputs = model.inputs[1]
            shapes = inputs["spatial_shapes"].save()
            mask = model.vision.image_token_mask.save()
            tower = model.vision.tower_output.save()
            features = model.vision.image_features.save()
            first = model.layers[0].layer_input.save()
            box.append((shapes, mask, tower, features, first))
        shapes, mask, tower, features, first = box[0]
        patch = model.vision.patch_size
        rows, cols = shapes[0].tolist()
        assert rows > cols and rows * cols * patch**2 == SIDE * SIDE, shapes
        assert tower.shape[1] == rows * cols and int(mask.sum()) == features.shape[0] == IMAGE_TOKENS
        assert torch.equal(first[mask], features)


class TestLfm2VlText(FamilySuite):
    CHECKPOINT = "lfm2_vl"
    FAMILY = FAMILY
    NATIVE = rows(
        "model.language_model",
        "layers",
        "embed_tokens",
        "embedding_norm",
        attn=None,
        ln1="operator_norm",
        ln2="ffn_norm",
        mlp="feed_forward",
    )
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    EXPECTED_UNAVAILABLE = WINDOW_UNAVAILABLE

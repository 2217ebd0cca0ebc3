"""Molmo2, end to end: a ViT run per crop, an attention-pooling adapter, the image added onto its tokens' embeddings.

transformers has the wrapper's image processor only as a torchvision class, so the
processor is built with `Molmo2Images`, the entry's PIL, NumPy and torch one, its video
slot left empty.
"""

import torch

from nnterp.components import VisionAttention, VisionLayer, VisionMlp
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.vision import VisionSuite, image, prompt_for

skip_unless_known("molmo2")
FAMILY = family("molmo2")

from nnterp_harness.entries.molmo2 import molmo2_processor  # noqa: E402 - after the skip

PROCESSOR = molmo2_processor()


class TestMolmo2Vision(VisionSuite):
    CHECKPOINT = "molmo2"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.Molmo2Vision, VisionLayer, VisionAttention, VisionMlp)
    # A 32-pixel image is its low-resolution whole and one high-resolution crop.
    CROPS = 2
    LOAD_KWARGS = {"processor": PROCESSOR}

    def test_features_are_the_projection_added_to_the_patch_tokens(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            embedded = model.embed_tokens.output.save()
            projected = model.projector.output.last_hidden_state.save()
            features = model.vision.image_features.save()
            box.append((mask, embedded, projected, features))
        mask, embedded, projected, features = box[0]
        patch = model._module.get_input_embeddings().weight[model.config.image_patch_id]
        assert torch.equal(embedded[mask], patch.expand_as(features))
        assert torch.equal(features, embedded[mask] + projected)

    def test_the_projector_pools_the_joined_block_streams(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            first = model.vision.layers[0].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.last_hidden_state.save()
            box.append((first, tower, received, projected))
        first, tower, received, projected = box[0]
        assert model.config.adapter_config.vision_feature_layer == [-1, 0]
        assert torch.equal(received, torch.cat([tower, first], dim=-1))
        # Each crop's 4x4 patches pool 2x2 into four image tokens.
        assert projected.shape == (self.CROPS * 4, model.hidden_size)

    def test_a_wide_image_is_a_whole_and_three_overlapping_crops(self, model):
        wide = image(0, self.IMAGE_SIDE * 2).resize((self.IMAGE_SIDE * 2, self.IMAGE_SIDE))
        inputs = PROCESSOR(text=prompt_for(model), images=[wide], return_tensors="pt")
        # A 64x32 image tiles as one row of three 16-pixel windows with a one-patch margin each side: a 32x64
        # canvas of 4x8 patches, pooled into 2x4 tokens, after the whole's 2x2.
        assert inputs["image_grids"].tolist() == [[2, 2, 2, 4]]
        assert inputs["image_num_crops"].tolist() == [4]
        pooling = inputs["image_token_pooling"]
        assert pooling.shape == (12, 4) and int(pooling.min()) >= 0
        # The canvas's first token pools the first crop's top-left 2x2 patches (after the whole's 16); its second
        # joins the first crop's last kept column (its right margin dropped) to the second crop's first kept one
        # (its left margin dropped, so patch 1 of that crop, 16 + 16 + 1).
        assert pooling[4].tolist() == [16, 17, 20, 21]
        assert pooling[5].tolist() == [18, 33, 22, 37]
        box = []
        with model.trace(prompt_for(model), images=[wide]):
            mask = model.vision.image_token_mask.save()
            tower = model.vision.layers[0].layer_output.save()
            features = model.vision.image_features.save()
            box.append((mask, tower, features))
        mask, tower, features = box[0]
        assert tower.shape[0] == 4
        assert int(mask.sum()) == features.shape[0] == 12

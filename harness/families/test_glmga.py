"""Glmga, end to end: GLM-4.6V's wrapper (GLM-4V's text model and packed ViT, a 2x2 downsample convolution and a
gated merger as projector) under Glmga's config and image processor."""

import torch

from nnterp.components import QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("glmga")
FAMILY = family("glmga")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("glmga", "Glm46VProcessor")}


class TestGlmgaVision(VisionSuite):
    CHECKPOINT = "glmga"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.GlmVision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_the_wrapper_is_glm46v_under_glmgas_image_processor(self, model):
        assert type(model._module).__name__ == "Glm46VForConditionalGeneration"
        assert model.config.model_type == "glmga"
        assert type(model.processor.image_processor).__name__ == "GlmgaImageProcessorPil"

    def test_one_image_token_per_merged_group_of_the_grid(self, model):
        prompt = prompt_for(model, 2)
        grid = model.processor(text=prompt, images=self.images(0, 1), return_tensors="pt")["image_grid_thw"]
        box = []
        with model.trace(prompt, images=self.images(0, 1)):
            mask = model.vision.image_token_mask.save()
            patches = model.vision.patch_embeddings.save()
            tower = model.vision.tower_output.save()
            features = model.vision.image_features.save()
            box.append((patches, tower, mask, features))
        patches, tower, mask, features = box[0]
        merge = model.vision.tower_config.spatial_merge_size
        cells = int(grid.prod(-1).sum())
        assert patches.shape[:2] == tower.shape[:2] == (1, cells)
        assert int(mask.sum()) == features.shape[0] == cells // merge**2
        assert torch.equal(grid[:, 1:] * model.vision.patch_size, torch.full_like(grid[:, 1:], self.IMAGE_SIDE))


class TestGlmgaText(FamilySuite):
    CHECKPOINT = "glmga"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    # One `gate_up_proj` computes the gate and the up half; no module outputs the up half alone.
    NEURONS_FROM_ACTIVATION = False

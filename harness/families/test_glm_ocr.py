"""GLM-OCR, end to end: the packed GLM-OCR ViT (per-head query and key norms, per-image attention, no position grid,
a final norm), a 2x2 downsample convolution and a gated merger as projector, on GLM-4V's text block."""

import torch

from nnterp.components import QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("glm_ocr")
FAMILY = family("glm_ocr")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("glm_ocr", "Glm46VProcessor")}


class TestGlmOcrVision(VisionSuite):
    CHECKPOINT = "glm_ocr"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.OcrVision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_the_patches_enter_the_first_block_unchanged(self, model):
        # No position grid and no norm after the patch convolution: block 0 reads the convolution's output.
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append((model.vision.patch_embeddings.save(), model.vision.layers[0].layer_input.save()))
        patches, first = box[0]
        assert torch.equal(patches, first)

    def test_the_merger_projects_the_downsampled_final_norm(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            merged = model.vision.downsample.output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, tower, merged, received, projected, features))
        last, tower, merged, received, projected, features = box[0]
        normed = model.vision.norm._module(last[0])
        assert torch.equal(tower[0], normed) and not torch.equal(tower, last)
        assert torch.equal(received, merged.flatten(1))
        assert received.shape == (tower.shape[1] // 4, model.hidden_size)
        assert torch.equal(projected, features)

    def test_the_block_mlp_is_intermediate_size_wide(self, model):
        config = model.vision.tower_config
        mlp = model.vision.layers[0].mlp
        assert model.vision.intermediate_size == config.intermediate_size != config.out_hidden_size
        assert mlp.intermediate_size == mlp.gate_proj._module.out_features == config.intermediate_size

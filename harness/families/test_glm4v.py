"""GLM-4V, end to end: the packed GLM-4V ViT with per-image attention and a final norm, a 2x2 downsample convolution
and a gated merger as projector, on GLM-4's block with a post-norm after each sublayer."""

import torch

from nnterp.components import QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("glm4v")
FAMILY = family("glm4v_text")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("glm4v", "Glm4vProcessor")}


class GlmTowerChecks:
    """The GLM-4V ViT's own layout; mix it in before `VisionSuite`."""

    def test_tower_output_is_the_final_norm_before_the_downsample(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            normed = model.vision.norm.output.save()
            tower = model.vision.tower_output.save()
            merged = model.vision.downsample.output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, normed, tower, merged, received, projected, features))
        last, normed, tower, merged, received, projected, features = box[0]
        merged = merged.flatten(1)  # the convolution's [groups, width, 1, 1]
        assert torch.equal(tower[0], normed) and not torch.equal(tower, last)
        assert merged.shape[0] * 4 == tower.shape[1] and merged.shape[-1] == model.hidden_size
        assert torch.equal(received, merged)
        assert torch.equal(projected, features)

    def test_the_block_mlp_is_out_hidden_size_wide(self, model):
        config = model.vision.tower_config
        assert model.vision.intermediate_size == config.out_hidden_size != config.intermediate_size


class TestGlm4vVision(GlmTowerChecks, VisionSuite):
    CHECKPOINT = "glm4v"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.GlmVision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}


class TestGlm4vText(FamilySuite):
    CHECKPOINT = "glm4v"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    # One `gate_up_proj` computes the gate and the up half; no module outputs the up half alone.
    NEURONS_FROM_ACTIVATION = False

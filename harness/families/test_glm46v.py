"""GLM-4.6V, end to end: GLM-4V's text model and packed ViT (a final norm, a 2x2 downsample convolution, a gated
merger as projector) under GLM-4.6V's wrapper and image processor."""

from nnterp.components import QwenVisionAttention, VisionLayer, VisionMlp
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.towers import GlmTowerChecks, QwenVisionSuite
from nnterp_harness.vision import processor_of

skip_unless_known("glm46v")
FAMILY = family("glm46v")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("glm46v", "Glm46VProcessor")}


class TestGlm46VVision(QwenVisionSuite):
    CHECKS = (GlmTowerChecks,)
    CHECKPOINT = "glm46v"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.GlmVision, VisionLayer, QwenVisionAttention, VisionMlp)
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}


class TestGlm46VText(FamilySuite):
    CHECKPOINT = "glm46v"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    # One `gate_up_proj` computes the gate and the up half; no module outputs the up half alone.
    NEURONS_FROM_ACTIVATION = False

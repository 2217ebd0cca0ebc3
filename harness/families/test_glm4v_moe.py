"""GLM-4.5V, end to end: GLM-4V's packed ViT with per-image attention, a final norm, a 2x2 downsample convolution
and a gated merger as projector, on GLM-4-MoE's text model: a dense block, then a grouped sigmoid mixture with a
shared expert."""

from nnterp.components import QwenVisionAttention, VisionLayer, VisionMlp
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import GlmTowerChecks, QwenVisionSuite
from nnterp_harness.vision import processor_of

skip_unless_known("glm4v_moe")
FAMILY = family("glm4v_moe")

#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("glm4v_moe", "Glm4vProcessor")}


class TestGlm4vMoeVision(QwenVisionSuite):
    CHECKS = (GlmTowerChecks,)
    CHECKPOINT = "glm4v_moe"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.GlmVision, VisionLayer, QwenVisionAttention, VisionMlp)
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

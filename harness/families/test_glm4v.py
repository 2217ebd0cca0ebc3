"""GLM-4V, end to end: the packed GLM-4V ViT with per-image attention and a final norm, a 2x2 downsample convolution
and a gated merger as projector. The text stack's suite runs in `test_glm4v_text.py` on this checkpoint."""

from nnterp.components import QwenVisionAttention, VisionLayer, VisionMlp
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import GlmTowerChecks, QwenVisionSuite
from nnterp_harness.vision import processor_of

skip_unless_known("glm4v")
FAMILY = family("glm4v")


class TestGlm4vVision(QwenVisionSuite):
    CHECKS = (GlmTowerChecks,)
    CHECKPOINT = "glm4v"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.GlmVision, VisionLayer, QwenVisionAttention, VisionMlp)
    # Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
    LOAD_KWARGS = {"processor": processor_of("glm4v", "Glm4vProcessor")}

"""GLM-4.6V, end to end: GLM-4V's text model and packed ViT (a final norm, a 2x2 downsample convolution, a gated
merger as projector) under GLM-4.6V's wrapper and image processor."""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.vision import processor_of

skip_unless_known("glm46v")
FAMILY = family("glm4v_text")

import test_glm4v as glm4v  # noqa: E402  - GLM-4V's checks, the same text model and tower here

#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("glm46v", "Glm46VProcessor")}


class TestGlm46VVision(glm4v.TestGlm4vVision):
    CHECKPOINT = "glm46v"
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}


class TestGlm46VText(glm4v.TestGlm4vText):
    CHECKPOINT = "glm46v"
    LOAD_KWARGS = LOAD_KWARGS

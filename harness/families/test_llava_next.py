"""LLaVA-NeXT over Qwen2, end to end: a SigLIP tower on each image's crops, the tiles unpadded with newline rows."""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import NewlineRowsChecks, VisionSuite

skip_unless_known("llava_next")
FAMILY = family("llava_next")


class TestLlavaNextVision(VisionSuite):
    CHECKS = (NewlineRowsChecks,)
    CHECKPOINT = "llava_next"
    FAMILY = FAMILY


class TestLlavaNextText(FamilySuite):
    CHECKPOINT = "llava_next"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text"}

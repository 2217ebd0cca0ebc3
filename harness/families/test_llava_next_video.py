"""LLaVA-NeXT-Video over Llama, end to end: a CLIP tower on each image's crops, the tiles unpadded with newline rows."""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import NewlineRowsChecks, VisionSuite, processor_of

skip_unless_known("llava_next_video")
FAMILY = family("llava_next_video")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = processor_of("llava_next_video", "LlavaNextVideoProcessor")


class TestLlavaNextVideoVision(VisionSuite):
    CHECKS = (NewlineRowsChecks,)
    CHECKPOINT = "llava_next_video"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}


class TestLlavaNextVideoText(FamilySuite):
    CHECKPOINT = "llava_next_video"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

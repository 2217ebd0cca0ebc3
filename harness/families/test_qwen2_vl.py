"""Qwen2-VL, end to end: the packed Qwen ViT with per-image attention, its merger as projector.

The text stack's suite runs in `test_qwen2_vl_text.py` on this checkpoint.
"""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import MergerChecks, PerImageHeadsChecks, QwenVisionSuite
from nnterp_harness.vision import processor_of

skip_unless_known("qwen2_vl")
FAMILY = family("qwen2_vl")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("qwen2_vl", "Qwen2VLProcessor")}


class TestQwen2VLVision(QwenVisionSuite):
    CHECKS = (MergerChecks, PerImageHeadsChecks)
    CHECKPOINT = "qwen2_vl"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

"""Qwen2.5-VL, end to end: the packed Qwen2.5 ViT with window attention, its merger reversing the window order.

The text stack's suite runs in `test_qwen2_5_vl_text.py` on this checkpoint.
"""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import QwenVisionSuite, WindowOrderChecks
from nnterp_harness.vision import processor_of

skip_unless_known("qwen2_5_vl")
FAMILY = family("qwen2_5_vl")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("qwen2_5_vl", "Qwen2_5_VLProcessor")}


class TestQwen2_5VLVision(QwenVisionSuite):
    CHECKS = (WindowOrderChecks,)
    CHECKPOINT = "qwen2_5_vl"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

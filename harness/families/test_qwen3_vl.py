"""Qwen3-VL, end to end: the packed Qwen3 ViT with per-image attention, its merger as projector, and two deepstack
taps that re-add tower blocks 0 and 1 to the image rows after text blocks 0 and 1.

The text stack's `FamilySuite` runs in `test_qwen3_vl_text.py` on this checkpoint.
"""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import DeepstackChecks, MergerChecks, QwenVisionSuite
from nnterp_harness.vision import processor_of

skip_unless_known("qwen3_vl")


class TestQwen3VLVision(QwenVisionSuite):
    CHECKS = (DeepstackChecks, MergerChecks)
    CHECKPOINT = "qwen3_vl"
    FAMILY = family("qwen3_vl")
    # Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
    LOAD_KWARGS = {"processor": processor_of("qwen3_vl", "Qwen3VLProcessor")}

"""Qwen3-VL-MoE, end to end: Qwen3-VL's packed ViT with two deepstack taps (tower blocks 0 and 1 re-added to the
image rows after text blocks 0 and 1) and its merger as projector, over a text model whose first two blocks are
mixtures. The text stack's suite runs in `test_qwen3_vl_moe_text.py` on this checkpoint."""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import DeepstackChecks, MergerChecks, QwenVisionSuite
from nnterp_harness.vision import processor_of

skip_unless_known("qwen3_vl_moe")


class TestQwen3VLMoeVision(QwenVisionSuite):
    CHECKS = (DeepstackChecks, MergerChecks)
    CHECKPOINT = "qwen3_vl_moe"
    FAMILY = family("qwen3_vl_moe")
    # Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
    LOAD_KWARGS = {"processor": processor_of("qwen3_vl_moe", "Qwen3VLProcessor")}

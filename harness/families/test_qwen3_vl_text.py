"""Qwen3-VL's text stack, on the wrapper checkpoint: Qwen3's block, with deepstack taps after blocks 0 and 1.

transformers has no causal-LM class for `qwen3_vl_text`, so the wrapper checkpoint
serves its text model; the taps are read with an image in `test_qwen3_vl.py`.
"""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.towers import NO_TAP, DeepstackTextChecks
from nnterp_harness.vision import processor_of

skip_unless_known("qwen3_vl")


class TestQwen3VLText(FamilySuite):
    CHECKS = (DeepstackTextChecks,)
    CHECKPOINT = "qwen3_vl"
    FAMILY = family("qwen3_vl")
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("qwen3_vl", "Qwen3VLProcessor")}
    EXPECTED_UNAVAILABLE = NO_TAP

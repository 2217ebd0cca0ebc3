"""Qwen2-VL's text stack, on the wrapper checkpoint: Qwen2's block with multimodal rotary positions.

transformers has no causal-LM class for `qwen2_vl_text`, so the wrapper checkpoint serves its text model.
"""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import processor_of

skip_unless_known("qwen2_vl")
FAMILY = family("qwen2_vl")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("qwen2_vl", "Qwen2VLProcessor")}


class TestQwen2VLText(FamilySuite):
    CHECKPOINT = "qwen2_vl"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS

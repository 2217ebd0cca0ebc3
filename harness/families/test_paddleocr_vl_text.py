"""PaddleOCR-VL's text stack, on the wrapper checkpoint.

transformers has no causal-LM class for `paddleocr_vl_text`, so the wrapper checkpoint serves its text model.
"""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import processor_of

skip_unless_known("paddleocr_vl")
FAMILY = family("paddleocr_vl")
#: Built from the checkpoint's parts: without torchvision an older release's auto image processor cannot load.
LOAD_KWARGS = {
    "task": "image-text-to-text",
    "processor": processor_of("paddleocr_vl", "PaddleOCRVLProcessor", video_slot=False),
}


class TestPaddleOCRVLText(FamilySuite):
    CHECKPOINT = "paddleocr_vl"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS

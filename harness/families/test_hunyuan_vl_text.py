"""HunYuanVL's text stack, on the wrapper checkpoint.

transformers has no causal-LM class for `hunyuan_vl_text`, so the wrapper checkpoint serves its text model.
"""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import processor_of

skip_unless_known("hunyuan_vl")

FAMILY = family("hunyuan_vl")
#: Built from its parts: transformers 5.20 cannot load the saved image processor without torchvision.
PROCESSOR = processor_of("hunyuan_vl", "HunYuanVLProcessor", video_slot=False)


class TestHunyuanVLText(FamilySuite):
    CHECKPOINT = "hunyuan_vl"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

"""GLM-OCR's text stack (`glm_ocr_text`), held to `FamilySuite` on the `glm_ocr` wrapper checkpoint; test_glm_ocr.py holds the tower."""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import processor_of

skip_unless_known("glm_ocr")
FAMILY = family("glm_ocr")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("glm_ocr", "Glm46VProcessor")}


class TestGlmOcrText(FamilySuite):
    CHECKPOINT = "glm_ocr"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    # One `gate_up_proj` computes the gate and the up half; no module outputs the up half alone.
    NEURONS_FROM_ACTIVATION = False

"""InternVL over Qwen2, end to end: InternViT's layer-scaled blocks, a pixel shuffle, the scatter in the model."""

from nnterp.components import VisionLayer
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.towers import InternViTChecks
from nnterp_harness.vision import VisionSuite, processor_of

skip_unless_known("internvl")
FAMILY = family("internvl")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = processor_of("internvl", "InternVLProcessor")


class TestInternVLVision(VisionSuite):
    CHECKS = (InternViTChecks,)
    CHECKPOINT = "internvl"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}

    TOWER_ENVOYS = (FAMILY.InternVision, VisionLayer, FAMILY.InternVisionAttention, FAMILY.InternVisionMlp)


class TestInternVLText(FamilySuite):
    CHECKPOINT = "internvl"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

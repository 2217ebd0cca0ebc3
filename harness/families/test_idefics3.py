"""Idefics 3 over Llama, end to end: a SigLIP-built tower, a pixel-shuffle connector, the scatter in a helper call."""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import HelperScatterChecks, VisionSuite, processor_of

skip_unless_known("idefics3")
FAMILY = family("idefics3")
#: Built from its parts: transformers 5.17 cannot load the saved image processor without torchvision.
PROCESSOR = processor_of("idefics3", "Idefics3Processor", video_slot=False)


class TestIdefics3Vision(VisionSuite):
    CHECKS = (HelperScatterChecks,)
    CHECKPOINT = "idefics3"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}


class TestIdefics3Text(FamilySuite):
    CHECKPOINT = "idefics3"
    FAMILY = FAMILY
    NATIVE = rows("model.text_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

"""Idefics 2 over Mistral, end to end: a SigLIP-built tower, a perceiver-resampler connector, the scatter in a helper call."""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import HelperScatterChecks, VisionSuite, processor_of

skip_unless_known("idefics2")
FAMILY = family("idefics2")
#: Built from its parts: transformers 5.17 cannot load the saved image processor without torchvision.
PROCESSOR = processor_of("idefics2", "Idefics2Processor", video_slot=False)


class TestIdefics2Vision(VisionSuite):
    CHECKS = (HelperScatterChecks,)
    CHECKPOINT = "idefics2"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}


class TestIdefics2Text(FamilySuite):
    CHECKPOINT = "idefics2"
    FAMILY = FAMILY
    NATIVE = rows("model.text_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

"""Cohere Compass, end to end: the packed Qwen3 ViT with a 2-D axial rotary and per-image attention, its merger as
projector, and two deepstack taps that re-add tower blocks 0 and 1 to the image rows after the parallel text blocks
0 and 1."""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.towers import NO_TAP, DeepstackChecks, DeepstackTextChecks, MergerChecks, QwenVisionSuite
from nnterp_harness.vision import processor_of

skip_unless_known("cohere_compass")
FAMILY = family("cohere_compass")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("cohere_compass", "CohereCompassProcessor")}


class TestCohereCompassVision(QwenVisionSuite):
    CHECKS = (DeepstackChecks, MergerChecks)
    CHECKPOINT = "cohere_compass"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}


class TestCohereCompassText(FamilySuite):
    CHECKS = (DeepstackTextChecks,)
    CHECKPOINT = "cohere_compass"
    FAMILY = FAMILY
    # One norm feeds both sublayers of the parallel block.
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm", ln2=None)
    LOAD_KWARGS = LOAD_KWARGS
    MLP_NORM = "input_layernorm"
    MLP_NORM_BEFORE_ATTENTION = True
    EXPECTED_UNAVAILABLE = {"layer_mid": "a parallel block", **NO_TAP}

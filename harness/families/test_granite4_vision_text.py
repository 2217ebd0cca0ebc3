"""Granite 4 Vision's text stack (`granite4_vision_text`), held to `FamilySuite` on the `granite4_vision` wrapper checkpoint; test_granite4_vision.py holds the tower."""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.towers import NO_TAP, DeepstackTextChecks

skip_unless_known("granite4_vision")
FAMILY = family("granite4_vision")
TAPS = 2


class TestGranite4VisionText(FamilySuite):
    CHECKS = (DeepstackTextChecks,)
    CHECKPOINT = "granite4_vision"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text"}
    EXPECTED_UNAVAILABLE = NO_TAP
    TAPS = TAPS

"""Qwen3-Omni's thinker, end to end: Qwen3-VL's packed ViT with per-image attention and two deepstack taps (tower
blocks 0 and 1 re-added to the image rows after text blocks 0 and 1), its merger as projector, and a one-layer
audio tower; then the text stack's suite, two mixture blocks and a dense one, on the same checkpoint. The audio
tower serves no values.
"""

import pytest

from nnterp_harness.entries.qwen2_5_omni_thinker import thinker_processor
from nnterp_harness.entries.qwen3_omni_moe_thinker import thinker_model_missing
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.towers import (
    DeepstackChecks,
    MergerChecks,
    PerImageHeadsChecks,
    QwenVisionSuite,
)

skip_unless_known("qwen3_omni_moe_thinker")
if reason := thinker_model_missing():
    pytest.skip(reason, allow_module_level=True)

from test_qwen2_5_omni_thinker import ThinkerChecks  # noqa: E402  - the omni thinker's scatter checks

FAMILY = family("qwen3_omni_moe_thinker")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = thinker_processor("qwen3_omni_moe_thinker", "Qwen3OmniMoeProcessor")


class TestQwen3OmniMoeThinkerVision(QwenVisionSuite):
    CHECKS = (ThinkerChecks, DeepstackChecks, MergerChecks, PerImageHeadsChecks)
    CHECKPOINT = "qwen3_omni_moe_thinker"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}
    THINKER_MODEL = "Qwen3OmniMoeThinkerModel"

"""Qwen3-Omni's thinker, end to end: Qwen3-VL's packed ViT with per-image attention and two deepstack taps (tower
blocks 0 and 1 re-added to the image rows after text blocks 0 and 1), its merger as projector, and a one-layer
audio tower; then the text stack's suite, two mixture blocks and a dense one, on the same checkpoint. The audio
tower serves no values.
"""

import pytest

from nnterp_harness.entries.qwen2_5_omni_thinker import thinker_processor
from nnterp_harness.entries.qwen3_omni_moe_thinker import thinker_model_missing
from nnterp_harness.mixture import MixtureChecks
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows
from nnterp_harness.towers import (
    NO_TAP,
    DeepstackChecks,
    DeepstackTextChecks,
    MergerChecks,
    PerImageHeadsChecks,
    QwenVisionSuite,
)

skip_unless_known("qwen3_omni_moe_thinker")
if reason := thinker_model_missing():
    pytest.skip(reason, allow_module_level=True)

from test_qwen2_5_omni_thinker import ThinkerChecks  # noqa: E402  - the omni thinker's scatter checks

FAMILY = family("qwen3_omni_moe_text")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = thinker_processor("qwen3_omni_moe_thinker", "Qwen3OmniMoeProcessor")


class TestQwen3OmniMoeThinkerVision(ThinkerChecks, DeepstackChecks, MergerChecks, PerImageHeadsChecks, QwenVisionSuite):
    CHECKPOINT = "qwen3_omni_moe_thinker"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}
    THINKER_MODEL = "Qwen3OmniMoeThinkerModel"


class TestQwen3OmniMoeText(MixtureChecks, DeepstackTextChecks, FamilySuite):
    CHECKPOINT = "qwen3_omni_moe_thinker"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    # No block has a shared expert: the mixtures say so, and the dense block has no mixture at all.
    EXPECTED_UNAVAILABLE = {**NO_TAP, **ROUTED_EXPERTS, "mlp.shared_expert_output": "has no shared"}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

    def test_the_checkpoint_holds_each_mlp_kind(self, model):
        kinds = [type(block.mlp) for block in model.layers]
        assert kinds == [FAMILY.Moe, FAMILY.Moe, FAMILY.Mlp], kinds

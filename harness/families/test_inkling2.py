"""Inkling 2 over its text model, end to end: a packed, layer-scaled ViT with a CLS row per image, a 2x2 merger.

The wrapper's image processor exists only as a torchvision class, so the processor is
built with `Inkling2Images`, its NumPy stand-in, in its place. The text stack runs the
whole family contract, with the attention-residual statements at the wrapper's text path.
"""

from nnterp.components import QwenVision, VisionLayer
from nnterp.components.inkling2_vision import Inkling2LayerScaledAttention, Inkling2LayerScaledMlp, Inkling2Vision
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.attention_residuals import AttentionResidualChecks
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite, rows
from nnterp_harness.vision import VisionSuite

skip_unless_known("inkling2")
FAMILY = family("inkling2")

from nnterp_harness.entries.inkling2 import (  # noqa: E402 - after the skip
    LayerScaledTowerChecks,
    WrappedResidualChecks,
    wrapper_processor,
)

PROCESSOR = wrapper_processor("inkling2")


class TestInkling2Vision(VisionSuite):
    CHECKS = (LayerScaledTowerChecks,)
    CHECKPOINT = "inkling2"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}
    TOWER_ENVOYS = (Inkling2Vision, VisionLayer, Inkling2LayerScaledAttention, Inkling2LayerScaledMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False

    def test_the_tower_is_no_qwen_vit(self, model):
        # Its config names the MLP's width outright beside a ratio, which QwenVision would read instead.
        assert not isinstance(model.vision, QwenVision)
        assert model.vision.intermediate_size == model.vision.tower_config.intermediate_size


class TestInkling2Text(FamilySuite):
    CHECKS = (WrappedResidualChecks, AttentionResidualChecks)
    CHECKPOINT = "inkling2"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}

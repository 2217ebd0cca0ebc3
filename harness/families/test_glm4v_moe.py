"""GLM-4.5V, end to end: GLM-4V's packed ViT with per-image attention, a final norm, a 2x2 downsample convolution
and a gated merger as projector, on GLM-4-MoE's text model: a dense block, then a grouped sigmoid mixture with a
shared expert."""

from nnterp.components import QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.mixture import MixtureChecks
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows
from nnterp_harness.vision import VisionSuite, processor_of

skip_unless_known("glm4v_moe")
FAMILY = family("glm4v_moe_text")

from test_glm4v import GlmTowerChecks  # noqa: E402  - GLM-4V's tower checks, the same tower here

#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("glm4v_moe", "Glm4vProcessor")}


class TestGlm4vMoeVision(GlmTowerChecks, VisionSuite):
    CHECKPOINT = "glm4v_moe"
    FAMILY = FAMILY
    TOWER_ENVOYS = (family("glm4v_text").GlmVision, VisionLayer, QwenVisionAttention, VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}


class TestGlm4vMoeText(MixtureChecks, FamilySuite):
    CHECKPOINT = "glm4v_moe"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, FAMILY.Moe)
        assert isinstance(model.layers[1].mlp, FAMILY.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}

"""Qwen3-VL-MoE, end to end: Qwen3-VL's packed ViT with two deepstack taps (tower blocks 0 and 1 re-added to the
image rows after text blocks 0 and 1), its merger as projector, on a text model whose first two blocks are mixtures.

The deepstack and merger checks are Qwen3-VL's (`test_qwen3_vl`), run here on this wrapper, and the text stack
adds the mixture checks.
"""

from nnterp_harness.mixture import MixtureChecks
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS
from nnterp_harness.vision import processor_of

skip_unless_known("qwen3_vl_moe")
FAMILY = family("qwen3_vl_moe_text")

import test_qwen3_vl as qwen3_vl  # noqa: E402  - Qwen3-VL's checks, collected here on this wrapper

#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("qwen3_vl_moe", "Qwen3VLProcessor")}


class TestQwen3VLMoeVision(qwen3_vl.TestQwen3VLVision):
    CHECKPOINT = "qwen3_vl_moe"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}


class TestQwen3VLMoeText(MixtureChecks, qwen3_vl.TestQwen3VLText):
    CHECKPOINT = "qwen3_vl_moe"
    FAMILY = FAMILY
    LOAD_KWARGS = LOAD_KWARGS
    # No block has a shared expert: the mixtures say so, and the dense block has no mixture at all.
    EXPECTED_UNAVAILABLE = {
        **qwen3_vl.TestQwen3VLText.EXPECTED_UNAVAILABLE,
        **ROUTED_EXPERTS,
        "mlp.shared_expert_output": "has no shared",
    }
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

    def test_the_checkpoint_holds_each_mlp_kind(self, model):
        kinds = [type(block.mlp) for block in model.layers]
        assert kinds == [FAMILY.Moe, FAMILY.Moe, FAMILY.Mlp], kinds

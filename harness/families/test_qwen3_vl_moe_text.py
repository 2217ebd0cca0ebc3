"""Qwen3-VL-MoE's text stack, on the wrapper checkpoint: two mixture blocks with deepstack taps, then a dense one.

transformers has no causal-LM class for `qwen3_vl_moe_text`, so the wrapper
checkpoint serves its text model; the taps are read with an image in `test_qwen3_vl_moe.py`.
"""

from nnterp.components import Mlp
from nnterp.families.qwen3_moe import Moe as qwen3_moe_Moe
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows
from nnterp_harness.towers import NO_TAP, DeepstackTextChecks
from nnterp_harness.vision import processor_of

skip_unless_known("qwen3_vl_moe")
FAMILY = family("qwen3_vl_moe")


class TestQwen3VLMoeText(FamilySuite):
    CHECKS = (DeepstackTextChecks,)
    CHECKPOINT = "qwen3_vl_moe"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("qwen3_vl_moe", "Qwen3VLProcessor")}
    # No block has a shared expert: the mixtures say so, and the dense block has no mixture at all.
    EXPECTED_UNAVAILABLE = {**NO_TAP, **ROUTED_EXPERTS, "mlp.shared_expert_output": "has no shared"}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}
    ROUTER_EXTRA_CLASSES = (Mlp,)

    def test_the_checkpoint_holds_each_mlp_kind(self, model):
        kinds = [type(block.mlp) for block in model.layers]
        assert kinds == [qwen3_moe_Moe, qwen3_moe_Moe, Mlp], kinds

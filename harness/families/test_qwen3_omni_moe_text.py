"""qwen3_omni_moe_text: its text family's suite on the `qwen3_omni_moe_thinker` wrapper checkpoint, beside the wrapper's `test_qwen3_omni_moe_thinker.py`.

No causal-LM class of the auto mapping builds `qwen3_omni_moe_text` alone, so the wrapper checkpoint serves its text stack.
"""

# ruff: noqa: E402  - the imports follow the skip, which must run first on a release without the type

from nnterp_harness.release import skip_unless_known

skip_unless_known("qwen3_omni_moe_thinker")

from test_qwen3_omni_moe_thinker import FAMILY, PROCESSOR

from nnterp.components import Mlp
from nnterp.families import qwen3_moe
from nnterp_harness.suite import (
    ROUTED_EXPERTS,
    FamilySuite,
    rows,
)
from nnterp_harness.towers import (
    NO_TAP,
    DeepstackTextChecks,
)


class TestQwen3OmniMoeText(FamilySuite):
    CHECKS = (DeepstackTextChecks,)
    CHECKPOINT = "qwen3_omni_moe_thinker"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    # No block has a shared expert: the mixtures say so, and the dense block has no mixture at all.
    EXPECTED_UNAVAILABLE = {**NO_TAP, **ROUTED_EXPERTS, "mlp.shared_expert_output": "has no shared"}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}
    ROUTER_EXTRA_CLASSES = (Mlp,)

    def test_the_checkpoint_holds_each_mlp_kind(self, model):
        kinds = [type(block.mlp) for block in model.layers]
        assert kinds == [qwen3_moe.Moe, qwen3_moe.Moe, Mlp], kinds

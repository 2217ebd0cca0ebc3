"""FlexOlmo, end to end: OLMo 2's post-norm block around a softmax mixture without a shared expert."""

from nnterp_harness.mixture import MixtureChecks
from nnterp_harness.release import family
from nnterp_harness.suite import NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite, rows

FAMILY = family("flex_olmo")

#: No pre-norm on either sublayer; the post-norms keep their native names.
NATIVE_ROWS = rows("model", "layers", "embed_tokens", "norm", ln1=None, ln2=None)
POST_NORM = {"attention_norm_output": "post-norm block", "mlp_norm_output": "post-norm block"}


class TestFlexOlmo(MixtureChecks, FamilySuite):
    CHECKPOINT = "flex_olmo"
    FAMILY = FAMILY
    NATIVE = NATIVE_ROWS
    EXPECTED_UNAVAILABLE = {**POST_NORM, **ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}
    ATTENTION_NORM = None
    MLP_NORM = None

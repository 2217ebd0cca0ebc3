"""FlexOlmo, end to end: OLMo 2's post-norm block around a softmax mixture without a shared expert."""

from nnterp_harness.post_norm import POST_NORM_ROWS, POST_NORM_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import NO_SHARED_EXPERT, ROUTED_EXPERTS, FamilySuite

FAMILY = family("flex_olmo")


class TestFlexOlmo(FamilySuite):
    CHECKPOINT = "flex_olmo"
    FAMILY = FAMILY
    NATIVE = POST_NORM_ROWS
    EXPECTED_UNAVAILABLE = {**POST_NORM_UNAVAILABLE, **ROUTED_EXPERTS, **NO_SHARED_EXPERT}
    MOE_UNAVAILABLE = {"shared_expert_output": "this mixture has no shared expert"}
    ATTENTION_NORM = None
    MLP_NORM = None

"""OLMo 2, end to end: a post-norm block with no norm in front of either sublayer."""

from nnterp_harness.post_norm import PostNormChecks
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite

FAMILY = family("olmo2")


class TestOlmo2(FamilySuite):
    CHECKS = (PostNormChecks,)
    CHECKPOINT = "olmo2"
    FAMILY = FAMILY

"""dots.llm1 (`Dots1ForCausalLM`), end to end: a sigmoid-scored mixture with shared experts."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite

FAMILY = family("dots1")


class TestDots1(FamilySuite):
    CHECKPOINT = "dots1"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

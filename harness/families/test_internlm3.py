"""InternLM3, end to end: Llama's modules under InternLM3's config."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("internlm3")


class TestInternlm3(FamilySuite):
    CHECKPOINT = "internlm3"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

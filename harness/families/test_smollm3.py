"""SmolLM3, end to end: a block without rotary positions among rotary ones."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("smollm3")


class TestSmollm3(FamilySuite):
    CHECKPOINT = "smollm3"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

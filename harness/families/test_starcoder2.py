"""StarCoder2, end to end: layer norms and a plain MLP under GPT-2's spellings."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("starcoder2")


class TestStarcoder2(FamilySuite):
    CHECKPOINT = "starcoder2"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

"""OLMo, end to end: parameter-free layer norms and a clamped query/key/value."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("olmo")


class TestOlmo(FamilySuite):
    CHECKPOINT = "olmo"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

"""EuroBERT (`eurobert`), end to end: Llama's pre-norm block as a bidirectional encoder under its masked-LM head."""

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("eurobert")


class TestEuroBert(FamilySuite):
    CHECKPOINT = "eurobert"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    # Stated, not inherited: `FamilySuite`'s own merged table holds a decoder's unavailable mask values.
    EXPECTED_UNAVAILABLE = {}

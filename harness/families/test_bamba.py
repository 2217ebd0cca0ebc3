"""Bamba (`BambaForCausalLM`), end to end: a Mamba-2 block, then an attention block, both with an MLP."""

from nnterp_harness.recurrent import CHUNKED_STATES
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("bamba")


class TestBamba(FamilySuite):
    CHECKPOINT = "bamba"
    FAMILY = FAMILY
    NATIVE = rows(
        "model", "layers", "embed_tokens", "final_layernorm", attn=None, ln2="pre_ff_layernorm", mlp="feed_forward"
    )
    EXPECTED_UNAVAILABLE = CHUNKED_STATES

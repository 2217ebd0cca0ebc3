"""Mamba-2 (`Mamba2ForCausalLM`), end to end: two Mamba-2 mixer blocks, grouped B and C, 4-token chunks."""

from nnterp_harness.recurrent import CHUNKED_STATES, MIXER_ONLY
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("mamba2")


class TestMamba2(FamilySuite):
    CHECKPOINT = "mamba2"
    FAMILY = FAMILY
    NATIVE = rows("backbone", "layers", "embeddings", "norm_f", attn=None, ln1="norm", ln2=None, mlp=None)
    EXPECTED_UNAVAILABLE = {**MIXER_ONLY, **CHUNKED_STATES}
    HYBRID = False
    MLP_NORM = None
    DECODE_MASK_COVERS_CACHE = False

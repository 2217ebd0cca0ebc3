"""Falcon-Mamba (`FalconMambaForCausalLM`), end to end: two Mamba-1 mixer blocks with normed B, C and steps."""

from nnterp_harness.recurrent import MIXER_ONLY, ROUTING_NEEDED
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("falcon_mamba")


class TestFalconMamba(FamilySuite):
    CHECKPOINT = "falcon_mamba"
    FAMILY = FAMILY
    NATIVE = rows("backbone", "layers", "embeddings", "norm_f", attn=None, ln1="norm", ln2=None, mlp=None)
    EXPECTED_UNAVAILABLE = {**ROUTING_NEEDED, **MIXER_ONLY}
    HYBRID = False
    MLP_NORM = None
    DECODE_MASK_COVERS_CACHE = False

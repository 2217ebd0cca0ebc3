"""Gemma 4 unified (text), end to end: per-block head widths and a block sum scaled by `layer_scalar`."""

from nnterp_harness.head_widths import PerBlockHeadWidthChecks
from nnterp_harness.layer_scalar import LayerScalarChecks
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("gemma4_unified_text")


class TestGemma4UnifiedText(FamilySuite):
    CHECKS = (LayerScalarChecks, PerBlockHeadWidthChecks)
    CHECKPOINT = "gemma4_unified_text"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    MLP_NORM = "pre_feedforward_layernorm"

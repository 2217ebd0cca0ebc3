"""Gemma 4 (text), end to end: per-block head widths, a per-layer input, a block sum scaled by `layer_scalar`."""

from nnterp_harness.head_widths import PerBlockHeadWidthChecks
from nnterp_harness.layer_scalar import LayerScalarChecks
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("gemma4_text")


class TestGemma4Text(FamilySuite):
    CHECKS = (LayerScalarChecks, PerBlockHeadWidthChecks)
    CHECKPOINT = "gemma4_text"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    MLP_NORM = "pre_feedforward_layernorm"

    def extra_terms(self, block):
        # The per-layer input's contribution, added after the MLP's.
        return [block.post_per_layer_input_norm.output]

"""HY-V4, end to end: unmixed hyper-connection streams around a gated sink latent attention and a mixture."""

import pytest

from nnterp_harness.entries.hy_v4 import indexed_attention_unsupported
from nnterp_harness.release import family
from nnterp_harness.sinks import sink_pattern
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite

FAMILY = family("hy_v4")

if reason := indexed_attention_unsupported():
    pytest.skip(reason, allow_module_level=True)


class TestHyV4(FamilySuite):
    CHECKPOINT = "hy_v4"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {
        **ROUTED_EXPERTS,
        "attention_comb": "unmixed",
        "mlp_comb": "unmixed",
    }
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    MLP_WIDTH_KEY = "intermediate_size"
    REFUSES_IN_PLACE = ("attention_values",)
    ATTENTION_SINK = True
    PREMIX_IS_HEAD_OUTPUTS = False
    COMB = False

    def pattern_from_scores(self, scores):
        return sink_pattern(scores, self._sinks)

    @pytest.fixture(autouse=True)
    def _first_sinks(self, model):
        self._sinks = model.layers[0].self_attn._module.sinks.detach()

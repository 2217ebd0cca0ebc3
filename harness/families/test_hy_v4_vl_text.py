"""HY-V4-VL's text stack, on the wrapper checkpoint.

transformers has no causal-LM class for `hy_v4_vl_text`, so the wrapper checkpoint serves its text model.
"""

import pytest

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.sinks import sink_pattern
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows
from nnterp_harness.vision import processor_of

skip_unless_known("hy_v4_vl")
FAMILY = family("hy_v4_vl")
#: The text family whose classes the wrapper's text model gets.
TEXT_FAMILY = family("hy_v4_vl_text")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("hy_v4_vl", "HYV4VLProcessor")}


class TestHyV4VLText(FamilySuite):
    CHECKPOINT = "hy_v4_vl"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    EXPECTED_UNAVAILABLE = {
        **ROUTED_EXPERTS,
        "attention_comb": "unmixed",
        "mlp_comb": "unmixed",
    }
    ROUTER_EXTRA_CLASSES = (TEXT_FAMILY.Mlp,)
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

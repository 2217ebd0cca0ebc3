"""ERNIE 4.5 on vLLM against the transformers engine: run with Llama's classes, an interleaved rotary embedding."""

from nnterp_harness.vllm_suite import WIDE_HEADS, VLLMSuite
from nnterp_vllm.families import ernie4_5


class TestVLLMErnie45(VLLMSuite):
    CHECKPOINT = "ernie4_5"
    FAMILY = ernie4_5
    #: vLLM's ERNIE 4.5 is Llama without biases: it loads no ``use_bias`` bias, so the test checkpoint has none.
    RESIZE = {**WIDE_HEADS, "use_bias": False}

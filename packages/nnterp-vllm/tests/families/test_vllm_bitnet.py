"""BitNet on vLLM's transformers backend against the transformers engine: sub-norms before both output projections."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import bitnet


class TestVLLMBitnet(VLLMSuite):
    CHECKPOINT = "bitnet"
    FAMILY = bitnet
    UNAVAILABLE = ALWAYS_UNAVAILABLE

"""StarCoder2 on vLLM's transformers backend against the transformers engine: llama's block with layer norms and a plain MLP (``c_fc``, the activation, ``c_proj``)."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import starcoder2


class TestVLLMStarcoder2(VLLMSuite):
    CHECKPOINT = "starcoder2"
    FAMILY = starcoder2
    UNAVAILABLE = ALWAYS_UNAVAILABLE

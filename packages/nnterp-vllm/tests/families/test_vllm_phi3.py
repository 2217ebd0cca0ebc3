"""Phi-3 on vLLM against the transformers engine: vLLM runs it with Llama's classes."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import phi3


class TestVLLMPhi3(VLLMSuite):
    CHECKPOINT = "phi3"
    FAMILY = phi3

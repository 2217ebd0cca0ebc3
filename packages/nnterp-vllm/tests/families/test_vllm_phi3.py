"""Phi-3 on vLLM against the transformers engine: vLLM runs it with Llama's classes."""

from nnterp.families.vllm import phi3
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMPhi3(VLLMSuite):
    CHECKPOINT = "phi3"
    FAMILY = phi3

"""Mistral on vLLM against the transformers engine: Llama's fused block over a sliding window."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import mistral


class TestVLLMMistral(VLLMSuite):
    CHECKPOINT = "mistral"
    FAMILY = mistral

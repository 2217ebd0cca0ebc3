"""Mistral on vLLM against the transformers engine: Llama's fused block over a sliding window."""

from nnterp.families.vllm import mistral
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMMistral(VLLMSuite):
    CHECKPOINT = "mistral"
    FAMILY = mistral

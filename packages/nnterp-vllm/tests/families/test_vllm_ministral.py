"""Ministral on vLLM's transformers backend against the transformers engine: Mistral's block with sliding-window and full-attention blocks."""

from nnterp.families.vllm import ministral
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMMinistral(VLLMSuite):
    CHECKPOINT = "ministral"
    FAMILY = ministral

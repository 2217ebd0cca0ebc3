"""Ministral on vLLM's transformers backend against the transformers engine: Mistral's block with sliding-window and full-attention blocks."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import ministral


class TestVLLMMinistral(VLLMSuite):
    CHECKPOINT = "ministral"
    FAMILY = ministral

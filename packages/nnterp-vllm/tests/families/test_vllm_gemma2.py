"""Gemma 2 on vLLM against the transformers engine: a sandwich block, softcaps, sliding windows, a scaled embedding."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import gemma2


class TestVLLMGemma2(VLLMSuite):
    CHECKPOINT = "gemma2"
    FAMILY = gemma2

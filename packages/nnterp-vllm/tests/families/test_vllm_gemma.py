"""Gemma on vLLM against the transformers engine: a scaled embedding, (1 + weight) norms, a GELU gate."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import gemma


class TestVLLMGemma(VLLMSuite):
    CHECKPOINT = "gemma"
    FAMILY = gemma

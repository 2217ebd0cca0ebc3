"""Gemma on vLLM against the transformers engine: a scaled embedding, (1 + weight) norms, a GELU gate."""

from nnterp.families.vllm import gemma
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMGemma(VLLMSuite):
    CHECKPOINT = "gemma"
    FAMILY = gemma

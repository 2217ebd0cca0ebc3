"""Gemma 3 on vLLM against the transformers engine: Gemma 2's sandwich block, query and key norms, local rotary bases."""

from nnterp.families.vllm import gemma3_text
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMGemma3Text(VLLMSuite):
    CHECKPOINT = "gemma3_text"
    FAMILY = gemma3_text

"""Gemma 3 on vLLM against the transformers engine: Gemma 2's sandwich block, query and key norms, local rotary bases."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import gemma3_text


class TestVLLMGemma3Text(VLLMSuite):
    CHECKPOINT = "gemma3_text"
    FAMILY = gemma3_text

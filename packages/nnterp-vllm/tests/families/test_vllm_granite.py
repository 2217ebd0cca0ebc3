"""Granite on vLLM against the transformers engine: contributions, embedding, scores and logits scaled."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import granite


class TestVLLMGranite(VLLMSuite):
    CHECKPOINT = "granite"
    FAMILY = granite

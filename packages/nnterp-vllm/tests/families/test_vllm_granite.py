"""Granite on vLLM against the transformers engine: contributions, embedding, scores and logits scaled."""

from nnterp.families.vllm import granite
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMGranite(VLLMSuite):
    CHECKPOINT = "granite"
    FAMILY = granite

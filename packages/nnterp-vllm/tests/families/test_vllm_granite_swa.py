"""Granite with sliding windows on vLLM against the transformers engine: Granite's scaled block."""

from nnterp.families.vllm import granite_swa
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMGraniteSWA(VLLMSuite):
    CHECKPOINT = "granite_swa"
    FAMILY = granite_swa

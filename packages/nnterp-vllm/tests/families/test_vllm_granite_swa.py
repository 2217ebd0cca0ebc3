"""Granite with sliding windows on vLLM against the transformers engine: Granite's scaled block."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import granite_swa


class TestVLLMGraniteSWA(VLLMSuite):
    CHECKPOINT = "granite_swa"
    FAMILY = granite_swa

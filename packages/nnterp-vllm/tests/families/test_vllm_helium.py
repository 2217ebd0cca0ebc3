"""Helium on vLLM's transformers backend against the transformers engine: Llama's block with an interleaved rotary embedding."""

from nnterp.families.vllm import helium
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMHelium(VLLMSuite):
    CHECKPOINT = "helium"
    FAMILY = helium

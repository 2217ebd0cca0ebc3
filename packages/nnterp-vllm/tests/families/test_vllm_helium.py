"""Helium on vLLM's transformers backend against the transformers engine: Llama's block with an interleaved rotary embedding."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import helium


class TestVLLMHelium(VLLMSuite):
    CHECKPOINT = "helium"
    FAMILY = helium

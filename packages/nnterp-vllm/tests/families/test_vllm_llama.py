"""Llama on vLLM against the transformers engine: the fused block, a gated MLP."""

from nnterp_harness.vllm_suite import VLLMSuite

from nnterp.families.vllm import llama


class TestVLLMLlama(VLLMSuite):
    CHECKPOINT = "llama"
    FAMILY = llama

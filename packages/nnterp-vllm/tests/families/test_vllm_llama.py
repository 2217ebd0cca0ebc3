"""Llama on vLLM against the transformers engine: the fused block, a gated MLP."""

from nnterp.families.vllm import llama
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMLlama(VLLMSuite):
    CHECKPOINT = "llama"
    FAMILY = llama

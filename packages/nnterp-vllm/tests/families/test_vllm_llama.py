"""Llama on vLLM against the transformers engine: the fused block, a gated MLP."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import llama


class TestVLLMLlama(VLLMSuite):
    CHECKPOINT = "llama"
    FAMILY = llama

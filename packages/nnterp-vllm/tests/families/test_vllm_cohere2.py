"""Cohere 2 on vLLM against the transformers engine: Cohere's parallel block with sliding-window blocks, run with Cohere's classes."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import cohere2


class TestVLLMCohere2(VLLMSuite):
    CHECKPOINT = "cohere2"
    FAMILY = cohere2
    UNAVAILABLE = VLLMSuite.UNAVAILABLE | {"layer_mid"}

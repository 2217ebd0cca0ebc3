"""Cohere 2 on vLLM against the transformers engine: Cohere's parallel block with sliding-window blocks, run with Cohere's classes."""

from nnterp.families.vllm import cohere2
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMCohere2(VLLMSuite):
    CHECKPOINT = "cohere2"
    FAMILY = cohere2
    UNAVAILABLE = VLLMSuite.UNAVAILABLE | {"layer_mid"}

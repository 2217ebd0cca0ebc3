"""Qwen2 on vLLM against the transformers engine: Llama's fused block in classes of its own."""

from nnterp.families.vllm import qwen2
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMQwen2(VLLMSuite):
    CHECKPOINT = "qwen2"
    FAMILY = qwen2

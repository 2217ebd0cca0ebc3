"""Qwen2 on vLLM against the transformers engine: Llama's fused block in classes of its own."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import qwen2


class TestVLLMQwen2(VLLMSuite):
    CHECKPOINT = "qwen2"
    FAMILY = qwen2

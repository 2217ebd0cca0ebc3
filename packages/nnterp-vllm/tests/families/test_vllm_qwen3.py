"""Qwen3 on vLLM against the transformers engine: per-head query and key norms before the rotary embedding."""

from nnterp.families.vllm import qwen3
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMQwen3(VLLMSuite):
    CHECKPOINT = "qwen3"
    FAMILY = qwen3

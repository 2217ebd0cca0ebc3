"""Qwen3 on vLLM against the transformers engine: per-head query and key norms before the rotary embedding."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import qwen3


class TestVLLMQwen3(VLLMSuite):
    CHECKPOINT = "qwen3"
    FAMILY = qwen3

"""Qwen3-MoE on vLLM against the transformers engine: a mixture in the fused kernel, which calls the gate itself."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import qwen3_moe


class TestVLLMQwen3Moe(VLLMSuite):
    CHECKPOINT = "qwen3_moe"
    FAMILY = qwen3_moe
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.shared_expert_output"}

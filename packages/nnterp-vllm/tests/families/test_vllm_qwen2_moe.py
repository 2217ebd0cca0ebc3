"""Qwen2-MoE on vLLM against the transformers engine: a mixture whose shared expert runs inside the fused kernel's call."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import qwen2_moe


class TestVLLMQwen2Moe(VLLMSuite):
    CHECKPOINT = "qwen2_moe"
    FAMILY = qwen2_moe
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.routed_output"}

"""Granite-MoE on vLLM against the transformers engine: a scaled mixture in the fused kernel, muP multipliers."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import granitemoe


class TestVLLMGranitemoe(VLLMSuite):
    CHECKPOINT = "granitemoe"
    FAMILY = granitemoe
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.shared_expert_output"}

"""Granite-MoE with sliding windows on vLLM against the transformers engine: Granite-MoE-Shared's block and windows."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import granitemoe_swa


class TestVLLMGranitemoeSWA(VLLMSuite):
    CHECKPOINT = "granitemoe_swa"
    FAMILY = granitemoe_swa
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.mlp_output"}

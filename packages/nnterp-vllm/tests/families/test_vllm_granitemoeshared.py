"""Granite-MoE-Shared on vLLM against the transformers engine: a scaled mixture beside the block's shared MLP."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import granitemoeshared


class TestVLLMGranitemoeshared(VLLMSuite):
    CHECKPOINT = "granitemoeshared"
    FAMILY = granitemoeshared
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.mlp_output"}

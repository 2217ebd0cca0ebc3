"""Cohere 2 MoE on vLLM against the transformers engine: a parallel block whose mixture runs its shared experts in the kernel's call."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, WIDE_HEADS, VLLMSuite
from nnterp_vllm.families import cohere2_moe


class TestVLLMCohere2Moe(VLLMSuite):
    CHECKPOINT = "cohere2_moe"
    FAMILY = cohere2_moe
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"layer_mid", "mlp.routed_output"}
    #: Every block a mixture, so one set of values holds on every block (the shared experts are the gated MLP).
    RESIZE = {**WIDE_HEADS, "mlp_layer_types": ["sparse", "sparse", "sparse"]}

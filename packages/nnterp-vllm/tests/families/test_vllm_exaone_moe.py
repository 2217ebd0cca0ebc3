"""EXAONE-MoE on vLLM against the transformers engine: a grouped sigmoid mixture with its shared experts in the kernel's call."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, WIDE_HEADS, VLLMSuite
from nnterp_vllm.families import exaone_moe


class TestVLLMExaoneMoe(VLLMSuite):
    CHECKPOINT = "exaone_moe"
    FAMILY = exaone_moe
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.routed_output"}
    #: Every block a mixture, so one set of values holds on every block (the shared experts are the gated MLP).
    RESIZE = {**WIDE_HEADS, "mlp_layer_types": ["sparse", "sparse"], "first_k_dense_replace": 0}

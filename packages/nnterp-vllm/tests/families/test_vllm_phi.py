"""Phi on vLLM's transformers backend against the transformers engine: a parallel block, partial rotary, query and key norms."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import phi


class TestVLLMPhi(VLLMSuite):
    CHECKPOINT = "phi"
    FAMILY = phi
    UNAVAILABLE = ALWAYS_UNAVAILABLE | {"layer_mid"}

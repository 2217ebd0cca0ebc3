"""Persimmon on vLLM's transformers backend against the transformers engine: a fused projection, per-head query and key norms, a plain squared-ReLU MLP."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import persimmon


class TestVLLMPersimmon(VLLMSuite):
    CHECKPOINT = "persimmon"
    FAMILY = persimmon
    UNAVAILABLE = ALWAYS_UNAVAILABLE

"""Persimmon on vLLM's transformers backend against the transformers engine: a fused projection, per-head query and key norms, a plain squared-ReLU MLP."""

from nnterp.families.vllm import persimmon
from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite


class TestVLLMPersimmon(VLLMSuite):
    CHECKPOINT = "persimmon"
    FAMILY = persimmon
    UNAVAILABLE = ALWAYS_UNAVAILABLE

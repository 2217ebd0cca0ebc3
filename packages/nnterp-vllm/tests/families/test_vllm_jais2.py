"""Jais 2 on vLLM's transformers backend against the transformers engine: biased layer norms and a plain ReLU² MLP."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import jais2


class TestVLLMJais2(VLLMSuite):
    CHECKPOINT = "jais2"
    FAMILY = jais2
    UNAVAILABLE = ALWAYS_UNAVAILABLE

"""Nemotron on vLLM against the transformers engine: (1 + weight) layer norms, partial rotary, a squared-ReLU MLP."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import nemotron


class TestVLLMNemotron(VLLMSuite):
    CHECKPOINT = "nemotron"
    FAMILY = nemotron
    UNAVAILABLE = ALWAYS_UNAVAILABLE

"""Nemotron on vLLM against the transformers engine: (1 + weight) layer norms, partial rotary, a squared-ReLU MLP."""

from nnterp.families.vllm import nemotron
from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite


class TestVLLMNemotron(VLLMSuite):
    CHECKPOINT = "nemotron"
    FAMILY = nemotron
    UNAVAILABLE = ALWAYS_UNAVAILABLE

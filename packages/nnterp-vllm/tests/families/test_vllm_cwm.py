"""CWM on vLLM's transformers backend against the transformers engine: llama's block, with sliding-window attention on some blocks."""

from nnterp.families.vllm import cwm
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMCwm(VLLMSuite):
    CHECKPOINT = "cwm"
    FAMILY = cwm

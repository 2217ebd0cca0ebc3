"""CWM on vLLM's transformers backend against the transformers engine: llama's block, with sliding-window attention on some blocks."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import cwm


class TestVLLMCwm(VLLMSuite):
    CHECKPOINT = "cwm"
    FAMILY = cwm

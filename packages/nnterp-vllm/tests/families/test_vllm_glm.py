"""GLM on vLLM's transformers backend against the transformers engine: a fused gate and up projection, a partial interleaved rotary."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import glm


class TestVLLMGlm(VLLMSuite):
    CHECKPOINT = "glm"
    FAMILY = glm

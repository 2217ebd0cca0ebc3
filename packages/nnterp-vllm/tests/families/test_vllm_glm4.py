"""GLM-4 on vLLM against the transformers engine: a sandwich block with fused adds, a partial rotary embedding."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import glm4


class TestVLLMGlm4(VLLMSuite):
    CHECKPOINT = "glm4"
    FAMILY = glm4

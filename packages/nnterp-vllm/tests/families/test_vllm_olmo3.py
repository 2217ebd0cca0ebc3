"""OLMo 3 on vLLM's transformers backend against the transformers engine: a post-norm block with sliding-window blocks."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import olmo3


class TestVLLMOlmo3(VLLMSuite):
    CHECKPOINT = "olmo3"
    FAMILY = olmo3
    UNAVAILABLE = VLLMSuite.UNAVAILABLE | {"attention_norm_output", "mlp_norm_output"}

"""OLMo 2 on vLLM's transformers backend against the transformers engine: a post-norm block, normed queries and keys."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import olmo2


class TestVLLMOlmo2(VLLMSuite):
    CHECKPOINT = "olmo2"
    FAMILY = olmo2
    UNAVAILABLE = VLLMSuite.UNAVAILABLE | {"attention_norm_output", "mlp_norm_output"}

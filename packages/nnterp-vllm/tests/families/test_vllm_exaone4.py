"""EXAONE 4 on vLLM against the transformers engine: a post-norm block returning the stream with its residual, query and key norms."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import exaone4


class TestVLLMExaone4(VLLMSuite):
    CHECKPOINT = "exaone4"
    FAMILY = exaone4
    UNAVAILABLE = VLLMSuite.UNAVAILABLE | {"attention_norm_output", "mlp_norm_output"}

"""Cohere on vLLM against the transformers engine: a parallel block with one norm, per-head query and key norms, scaled logits."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import cohere


class TestVLLMCohere(VLLMSuite):
    CHECKPOINT = "cohere"
    FAMILY = cohere
    UNAVAILABLE = VLLMSuite.UNAVAILABLE | {"layer_mid"}

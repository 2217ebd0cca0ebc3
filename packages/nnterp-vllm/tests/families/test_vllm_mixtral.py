"""Mixtral on vLLM against the transformers engine: a mixture in the fused kernel, the router's logits at the gate."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import mixtral


class TestVLLMMixtral(VLLMSuite):
    CHECKPOINT = "mixtral"
    FAMILY = mixtral
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.shared_expert_output"}

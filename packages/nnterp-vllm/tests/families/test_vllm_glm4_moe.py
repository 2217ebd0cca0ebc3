"""GLM-4.5 on vLLM against the transformers engine: a sigmoid-routed mixture whose shared experts run inside the fused kernel's call."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, WIDE_HEADS, VLLMSuite
from nnterp_vllm.families import glm4_moe


class TestVLLMGlm4Moe(VLLMSuite):
    CHECKPOINT = "glm4_moe"
    FAMILY = glm4_moe
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.routed_output"}
    #: Every block a mixture, so one set of values holds on every block; vLLM's GLM-4.5 never ties the head to the
    #: embedding (the published checkpoints do not), where the pinned checkpoint does.
    RESIZE = {**WIDE_HEADS, "first_k_dense_replace": 0, "tie_word_embeddings": False}

"""OLMoE on vLLM against the transformers engine: a mixture in the fused kernel, query and key norms over all heads."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, WIDE_HEADS, VLLMSuite
from nnterp_vllm.families import olmoe


class TestVLLMOlmoe(VLLMSuite):
    CHECKPOINT = "olmoe"
    FAMILY = olmoe
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.shared_expert_output"}
    #: vLLM's OLMoE never renormalizes the chosen experts' weights and never ties the head to the embedding, as
    #: the published checkpoints do neither; the pinned checkpoint does both.
    RESIZE = {**WIDE_HEADS, "norm_topk_prob": False, "tie_word_embeddings": False}

"""AFMoE on vLLM against the transformers engine: a sandwich block, a gated attention, a biased sigmoid mixture."""

from nnterp_harness.vllm_suite import FUSED_MOE_UNAVAILABLE, WIDE_HEADS, VLLMSuite
from nnterp_vllm.families import afmoe


class TestVLLMAfmoe(VLLMSuite):
    CHECKPOINT = "afmoe"
    FAMILY = afmoe
    UNAVAILABLE = FUSED_MOE_UNAVAILABLE | {"mlp.routed_output"}
    #: Every block a mixture, so one set of values holds on every block. The routing transformers' AFMoE
    #: hard-codes (a sigmoid, renormalized, over every expert) stated in the entries vLLM reads, one group of
    #: all the experts; an untied head, as vLLM builds it (the published checkpoints do not tie either).
    RESIZE = {
        **WIDE_HEADS,
        "num_dense_layers": 0,
        "score_func": "sigmoid",
        "route_norm": True,
        "n_group": 1,
        "topk_group": 1,
        "tie_word_embeddings": False,
    }

"""GPT-J on vLLM against the transformers engine: a parallel block, an interleaved partial rotary embedding, a plain MLP."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import gptj


class TestVLLMGPTJ(VLLMSuite):
    CHECKPOINT = "gptj"
    FAMILY = gptj
    #: vLLM's GPT-J refuses tied embeddings, which the pinned checkpoint has.
    RESIZE = {"n_embd": 128, "n_head": 4, "tie_word_embeddings": False}
    UNAVAILABLE = ALWAYS_UNAVAILABLE | {"layer_mid"}

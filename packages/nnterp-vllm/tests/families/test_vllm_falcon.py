"""Falcon on vLLM against the transformers engine: a parallel block, multi-query attention, biases the block adds."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import falcon


class TestVLLMFalcon(VLLMSuite):
    CHECKPOINT = "falcon"
    FAMILY = falcon
    #: vLLM's Falcon MLP is 4 * hidden_size wide whatever ``ffn_hidden_size`` says; the test checkpoint agrees.
    RESIZE = {"hidden_size": 128, "ffn_hidden_size": 512}
    UNAVAILABLE = ALWAYS_UNAVAILABLE | {"layer_mid"}

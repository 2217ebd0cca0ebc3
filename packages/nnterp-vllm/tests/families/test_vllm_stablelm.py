"""StableLM on vLLM against the transformers engine: LayerNorms, a partial rotary embedding, the block returning the stream with its residual."""

from nnterp_harness.vllm_suite import WIDE_HEADS, VLLMSuite
from nnterp_vllm.families import stablelm


class TestVLLMStablelm(VLLMSuite):
    CHECKPOINT = "stablelm"
    FAMILY = stablelm
    #: vLLM's StableLM has no query and key norms and refuses their weights, so the test checkpoint has none.
    RESIZE = {**WIDE_HEADS, "qk_layernorm": False}

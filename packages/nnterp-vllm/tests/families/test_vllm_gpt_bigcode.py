"""GPTBigCode on vLLM's transformers backend against the transformers engine: multi-query attention, a plain MLP."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import gpt_bigcode


class TestVLLMGPTBigCode(VLLMSuite):
    CHECKPOINT = "gpt_bigcode"
    FAMILY = gpt_bigcode
    RESIZE = {"n_embd": 128, "n_head": 4, "n_inner": 128}
    UNAVAILABLE = ALWAYS_UNAVAILABLE

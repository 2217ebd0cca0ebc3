"""GPT-SW3 on vLLM against the transformers engine: run with GPT-2's classes, a plain MLP."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import gpt_sw3


class TestVLLMGptSw3(VLLMSuite):
    CHECKPOINT = "gpt_sw3"
    FAMILY = gpt_sw3
    #: vLLM's GPT-2 refuses ``scale_attn_by_inverse_layer_idx``, which the pinned checkpoint sets.
    RESIZE = {"n_embd": 128, "n_head": 4, "scale_attn_by_inverse_layer_idx": False}
    UNAVAILABLE = ALWAYS_UNAVAILABLE

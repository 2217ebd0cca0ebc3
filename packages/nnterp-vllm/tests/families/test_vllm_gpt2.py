"""GPT-2 on vLLM against the transformers engine: a plain MLP, so both neuron values are served."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import gpt2


class TestVLLMGPT2(VLLMSuite):
    CHECKPOINT = "gpt2"
    FAMILY = gpt2
    RESIZE = {"n_embd": 128, "n_head": 4}
    UNAVAILABLE = ALWAYS_UNAVAILABLE

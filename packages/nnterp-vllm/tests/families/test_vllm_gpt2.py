"""GPT-2 on vLLM against the transformers engine: a plain MLP, so both neuron values are served."""

from nnterp.families.vllm import gpt2
from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite


class TestVLLMGPT2(VLLMSuite):
    CHECKPOINT = "gpt2"
    FAMILY = gpt2
    RESIZE = {"n_embd": 128, "n_head": 4}
    UNAVAILABLE = ALWAYS_UNAVAILABLE

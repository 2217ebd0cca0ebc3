"""MiniCPM3 on vLLM against the transformers engine: latent attention computed out, scaled contributions."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import minicpm3


class TestVLLMMiniCPM3(VLLMSuite):
    CHECKPOINT = "minicpm3"
    FAMILY = minicpm3
    #: vLLM's CPU attention takes heads 32 wide: the queries and keys are 16 + 16, the values as wide (no padding).
    RESIZE = {
        "hidden_size": 128,
        "intermediate_size": 128,
        "qk_nope_head_dim": 16,
        "qk_rope_head_dim": 16,
        "qk_head_dim": 32,
        "v_head_dim": 32,
        "head_dim": 32,
    }

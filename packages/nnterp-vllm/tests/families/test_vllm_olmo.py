"""OLMo on vLLM's transformers backend against the transformers engine: parameter-free norms, clipped projections."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import olmo


class TestVLLMOlmo(VLLMSuite):
    CHECKPOINT = "olmo"
    FAMILY = olmo

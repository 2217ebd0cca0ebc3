"""OLMo on vLLM's transformers backend against the transformers engine: parameter-free norms, clipped projections."""

from nnterp.families.vllm import olmo
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMOlmo(VLLMSuite):
    CHECKPOINT = "olmo"
    FAMILY = olmo

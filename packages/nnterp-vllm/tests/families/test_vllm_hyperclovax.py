"""HyperCLOVA X on vLLM against the transformers engine: muP multipliers on the embedding, the contributions, the scores and the logits, post-norms."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import hyperclovax


class TestVLLMHyperclovax(VLLMSuite):
    CHECKPOINT = "hyperclovax"
    FAMILY = hyperclovax

"""HyperCLOVA X on vLLM against the transformers engine: muP multipliers on the embedding, the contributions, the scores and the logits, post-norms."""

from nnterp.families.vllm import hyperclovax
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMHyperclovax(VLLMSuite):
    CHECKPOINT = "hyperclovax"
    FAMILY = hyperclovax

"""Arcee on vLLM's transformers backend against the transformers engine: llama's block with a plain MLP (``up_proj``, a squared ReLU, ``down_proj``)."""

from nnterp_harness.vllm_suite import ALWAYS_UNAVAILABLE, VLLMSuite
from nnterp_vllm.families import arcee


class TestVLLMArcee(VLLMSuite):
    CHECKPOINT = "arcee"
    FAMILY = arcee
    UNAVAILABLE = ALWAYS_UNAVAILABLE

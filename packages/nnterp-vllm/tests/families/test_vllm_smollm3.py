"""SmolLM3 on vLLM's transformers backend against the transformers engine: llama's block, with rotary embeddings left out of some blocks (``no_rope_layers``)."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import smollm3


class TestVLLMSmolLM3(VLLMSuite):
    CHECKPOINT = "smollm3"
    FAMILY = smollm3

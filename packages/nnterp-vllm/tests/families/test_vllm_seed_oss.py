"""Seed-OSS on vLLM's transformers backend against the transformers engine: llama's block with biased query, key and value projections."""

from nnterp.families.vllm import seed_oss
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMSeedOss(VLLMSuite):
    CHECKPOINT = "seed_oss"
    FAMILY = seed_oss

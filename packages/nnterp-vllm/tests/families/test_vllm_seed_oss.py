"""Seed-OSS on vLLM's transformers backend against the transformers engine: llama's block with biased query, key and value projections."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import seed_oss


class TestVLLMSeedOss(VLLMSuite):
    CHECKPOINT = "seed_oss"
    FAMILY = seed_oss

"""VaultGemma on vLLM's transformers backend against the transformers engine: Gemma 2's block without post-norms."""

from nnterp_harness.vllm_suite import VLLMSuite
from nnterp_vllm.families import vaultgemma


class TestVLLMVaultGemma(VLLMSuite):
    CHECKPOINT = "vaultgemma"
    FAMILY = vaultgemma

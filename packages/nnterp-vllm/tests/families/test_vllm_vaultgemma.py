"""VaultGemma on vLLM's transformers backend against the transformers engine: Gemma 2's block without post-norms."""

from nnterp.families.vllm import vaultgemma
from nnterp_harness.vllm_suite import VLLMSuite


class TestVLLMVaultGemma(VLLMSuite):
    CHECKPOINT = "vaultgemma"
    FAMILY = vaultgemma

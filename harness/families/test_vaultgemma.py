"""VaultGemma, end to end: Gemma 2's block without post-norms, and a softcapped head."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("vaultgemma")


class TestVaultGemma(FamilySuite):
    CHECKPOINT = "vaultgemma"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", ln2=None)
    MLP_NORM = "pre_feedforward_layernorm"

    def test_the_blocks_mix_sliding_and_global_attention(self, model):
        kinds = set(model.config.layer_types)
        assert kinds == {"sliding_attention", "full_attention"}

    def test_logits_are_the_softcapped_head(self, model):
        with model.trace("The Eiffel Tower is in"):
            head = model.lm_head_output.save()
            logits = model.logits.save()
        cap = model.config.final_logit_softcapping
        assert cap and not torch.allclose(head, logits, atol=1e-3)
        assert torch.allclose(logits, cap * torch.tanh(head / cap), atol=1e-5)

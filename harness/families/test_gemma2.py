"""Gemma 2, end to end: a sandwich block and a softcapped head."""

import torch

from nnterp.families import gemma2
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite


class TestGemma2(FamilySuite):
    CHECKPOINT = "gemma2"
    FAMILY = gemma2
    NATIVE = LLAMA_ROWS
    MLP_NORM = "pre_feedforward_layernorm"

    def test_the_contribution_is_the_post_norm_not_the_module_output(self, model):
        block = model.layers[0]
        with model.trace("The Eiffel Tower is in"):
            returned = block.self_attn.output.save()
            attn = block.self_attn.attention_output.save()
            normed = block.post_attention_layernorm.output.save()
        assert torch.equal(attn, normed) and not torch.equal(attn, returned[0])

    def test_logits_are_the_softcapped_head(self, model):
        with model.trace("The Eiffel Tower is in"):
            head = model.lm_head_output.save()
            logits = model.logits.save()
        cap = model.config.final_logit_softcapping
        assert cap and not torch.equal(head, logits)
        assert torch.allclose(logits, cap * torch.tanh(head / cap), atol=1e-5)

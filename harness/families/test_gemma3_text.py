"""Gemma 3 (text), end to end: a sandwich block, sliding and global blocks, a softcapped head."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("gemma3_text")


class TestGemma3Text(FamilySuite):
    CHECKPOINT = "gemma3_text"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    MLP_NORM = "pre_feedforward_layernorm"

    def test_the_blocks_mix_sliding_and_global_attention(self, model):
        assert [block.self_attn._module.is_sliding for block in model.layers] == [True, False]

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
        assert cap and not torch.allclose(head, logits, atol=1e-3)
        assert torch.allclose(logits, cap * torch.tanh(head / cap), atol=1e-5)

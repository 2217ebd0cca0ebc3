"""Qwen2, end to end: Llama's block with grouped-query attention."""

import torch

from nnterp.families import qwen2
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite


class TestQwen2(FamilySuite):
    CHECKPOINT = "qwen2"
    FAMILY = qwen2
    NATIVE = LLAMA_ROWS

    def test_keys_and_values_are_grouped(self, model):
        attn = model.layers[1].self_attn
        assert attn.num_kv_heads < attn.num_heads
        with model.trace("The Eiffel Tower is in"):
            v = attn.attention_values.save()
        with model.trace("The Eiffel Tower is in"):
            pattern = attn.attention_probabilities.save()
        with model.trace("The Eiffel Tower is in"):
            heads = attn.attention_head_outputs.save()
        assert v.shape[1] == attn.num_kv_heads and pattern.shape[1] == attn.num_heads
        groups = attn.num_heads // attn.num_kv_heads
        mixed = (pattern @ v.repeat_interleave(groups, dim=1)).transpose(1, 2)
        assert torch.allclose(mixed, heads, atol=1e-5)

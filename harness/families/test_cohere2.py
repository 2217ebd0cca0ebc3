"""Cohere 2, end to end: Cohere's parallel block over sliding and global blocks, and the scaled head.

The block adds `(x + attn) + mlp`, the identity's own order, so the suite's identity
holds bit for bit here although the block is parallel.
"""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("cohere2")


class TestCohere2(FamilySuite):
    CHECKPOINT = "cohere2"
    FAMILY = FAMILY
    NATIVE = {key: value for key, value in LLAMA_ROWS.items() if key != "layers.0.post_attention_layernorm"}
    EXPECTED_UNAVAILABLE = {"layer_mid": "a parallel block"}
    MLP_NORM = "input_layernorm"
    MLP_NORM_BEFORE_ATTENTION = True

    def test_logits_are_the_scaled_head(self, model):
        with model.trace("The Eiffel Tower is in"):
            head = model.lm_head_output.save()
            logits = model.logits.save()
        scale = model.config.logit_scale
        assert scale != 1.0 and torch.equal(logits, head * scale)

    def test_both_attention_kinds_are_there(self, model):
        kinds = [model.layers[i].self_attn._module.sliding_window for i in range(len(model.layers))]
        assert None in kinds and any(kind is not None for kind in kinds)

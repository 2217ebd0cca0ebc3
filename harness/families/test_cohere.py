"""Cohere, end to end: a one-norm parallel block and a head scaled by `logit_scale`.

The block adds `(x + attn) + mlp`, the identity's own order, so the suite's identity
holds bit for bit here although the block is parallel.
"""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("cohere")


class TestCohere(FamilySuite):
    CHECKPOINT = "cohere"
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

    def test_the_identity_is_exact(self, model):
        with model.trace("The Eiffel Tower is in"):
            block = model.layers[1]
            x = block.layer_input.save()
            attn = block.self_attn.attention_output.save()
            mlp = block.mlp.mlp_output.save()
            out = block.layer_output.save()
        assert torch.equal(x + attn + mlp, out)

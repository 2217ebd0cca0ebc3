"""EuroBERT (`eurobert`), end to end: Llama's pre-norm block as a bidirectional encoder under its masked-LM head."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

FAMILY = family("eurobert")


class TestEuroBert(FamilySuite):
    CHECKPOINT = "eurobert"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    # Stated, not inherited: `FamilySuite`'s own merged table holds a decoder's unavailable mask values.
    EXPECTED_UNAVAILABLE = {}

    def test_the_pre_norm_identity_is_exact(self, model):
        # The block adds in this order, so the sum is bit for bit the block's output, padded batch included.
        count = len(model.layers)

        def body(m):
            return [
                (b.layer_input, b.self_attn.attention_output, b.mlp.mlp_output, b.layer_output)
                for b in (m.layers[i] for i in range(count))
            ]

        for index, (x, attention, mlp, out) in enumerate(run(model, body, ["The Eiffel Tower is in", "Paris"])):
            assert torch.equal(x + attention + mlp, out), f"block {index}: the sum is not layer_output bit for bit"

"""Gemma, end to end: Llama's block with an embedding scaled by the square root of the width."""

import math

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("gemma")


class TestGemma(FamilySuite):
    CHECKPOINT = "gemma"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

    def test_the_embedding_is_scaled(self, model):
        with model.trace("The Eiffel Tower is in"):
            ids = model.input_ids.save()
            embedded = model.embed_tokens.output.save()
            first = model.layers[0].layer_input.save()
        table = model.embed_tokens._module.weight[ids[0]]
        assert torch.equal(embedded, first)
        assert torch.allclose(embedded[0], table * math.sqrt(model.hidden_size), atol=1e-5)

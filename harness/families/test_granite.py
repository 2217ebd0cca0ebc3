"""Granite, end to end: scaled contributions, a scaled embedding and a scaled head."""

import torch

from nnterp_harness.release import family
from nnterp_harness.scaled import ResidualScaleChecks
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

FAMILY = family("granite")


class TestGranite(FamilySuite):
    CHECKS = (ResidualScaleChecks,)
    CHECKPOINT = "granite"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

    def test_the_embedding_multiplier_sits_between_the_lookup_and_block_0(self, model):
        multiplier = model.config.embedding_multiplier
        assert multiplier != 1.0
        lookup, entering = run(model, lambda m: (m.token_embeddings, m.layers[0].layer_input))
        assert torch.equal(entering, lookup * multiplier)

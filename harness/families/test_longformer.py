"""Longformer (`longformer`), end to end: BERT's blocks over a window-padded sequence, a banded sliding window."""

import pytest
import torch

from nnterp import StandardizedTransformer
from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness import locate
from nnterp_harness.helpers import with_config
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("longformer")


class TestLongformer(FamilySuite):
    CHECKPOINT = "longformer"
    FAMILY = FAMILY
    NATIVE = rows(
        "longformer",
        "encoder.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.self_output.LayerNorm",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = OUTPUT_NORM
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.decoder"

    @pytest.fixture(autouse=True)
    def _root(self, model):
        type(self).ROOT = model._module

    def native(self, value):
        # The blocks run the window-padded sequence; the values serve the caller's positions, the first ones.
        return value[:, : self.ROOT._nnterp_user_positions]

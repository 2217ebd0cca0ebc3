"""BigBird (`big_bird`), end to end under full attention, and its block-sparse attention's interior unavailable."""

import pytest

from nnterp import StandardizedTransformer, Unavailable
from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness.helpers import with_config
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("big_bird")


class TestBigBird(FamilySuite):
    CHECKPOINT = "big_bird"
    FAMILY = FAMILY
    NATIVE = rows(
        "bert",
        "encoder.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.self_output.LayerNorm",
        head="cls",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = OUTPUT_NORM
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.predictions.decoder"

    def test_block_sparse_interior_is_unavailable(self, checkpoint, tmp_path_factory):
        target = with_config(checkpoint, tmp_path_factory.mktemp("big_bird_sparse"), attention_type="block_sparse")
        sparse = StandardizedTransformer(str(target), dispatch=True, attn_implementation="eager")
        support = sparse.support(layer=0)
        for name in ("attention_queries", "attention_scores", "attention_probabilities", "attention_head_outputs"):
            reason = support[f"self_attn.{name}"]
            assert "block_sparse" in reason and "original_full" in reason, f"{name}: {reason!r}"
        assert support["self_attn.attention_output"] is None
        with pytest.raises(Unavailable, match="original_full"):
            with sparse.trace("The Eiffel Tower is in [MASK]"):
                sparse.layers[0].self_attn.attention_probabilities.save()

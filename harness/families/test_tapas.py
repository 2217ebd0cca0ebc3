"""TAPAS (`tapas`), end to end: BERT over a flattened table, with seven token-type columns."""

import torch

from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("tapas")


class TestTapas(FamilySuite):
    CHECKPOINT = "tapas"
    FAMILY = FAMILY
    NATIVE = rows(
        "tapas",
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

    def test_table_token_types_reach_the_stream(self, model):
        # A prompt alone gets zeros in the seven columns; ids given with the inputs move the stream entering block 0.
        encoded = dict(model.tokenizer("The Eiffel Tower is in [MASK]", return_tensors="pt"))
        zeros = torch.zeros(*encoded["input_ids"].shape, 7, dtype=torch.long)
        columns = zeros.clone()
        columns[0, 1:, 1] = 1  # every token after [CLS] in the first column
        columns[0, 1:, 2] = 1  # and the first row

        def entering(m):
            return m.layers[0].layer_input

        plain = run(model, entering, encoded)
        zeroed = run(model, entering, {**encoded, "token_type_ids": zeros})
        table = run(model, entering, {**encoded, "token_type_ids": columns})
        assert torch.equal(plain, zeroed), "a prompt alone does not take zeros in every column"
        assert not torch.equal(plain, table), "the table's column and row ids did not reach the stream"

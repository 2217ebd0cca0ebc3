"""XLM-RoBERTa-XL (`xlm-roberta-xl`), end to end: a bidirectional pre-LN encoder, its blocks regrouped, a final norm."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("xlm-roberta-xl")


class TestXLMRobertaXL(FamilySuite):
    CHECKPOINT = "xlm_roberta_xl"
    FAMILY = FAMILY
    NATIVE = rows("roberta", "encoder.layer", "embeddings.word_embeddings", "encoder.LayerNorm", attn="attention")
    # Stated, though empty: a class that inherits the suite's dict inherits a decoder's kind entries with it.
    EXPECTED_UNAVAILABLE: dict[str, str] = {}
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.decoder"

    def test_mlp_output_is_the_down_projection(self, model):
        # The output module has no dropout: the term its add takes is the down projection's output.
        def body(m):
            b = m.layers[0]
            return b.layer_mid, b.mlp.down_proj.output, b.mlp.mlp_output, b.layer_output

        mid, down, term, out = run(model, body)
        assert torch.equal(term, down) and torch.equal(out, mid + term)

    def test_stream_entering_block_zero_is_the_unnormed_embedding_sum(self, model):
        def body(m):
            return m.token_embeddings, m.roberta.embeddings.output, m.layers[0].layer_input

        tokens, summed, entering = run(model, body)
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the sum of the tables, not the token table"

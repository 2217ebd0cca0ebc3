"""RemBERT (`rembert`), end to end: a bidirectional post-LN encoder with decoupled embedding widths."""

import json
import shutil

import pytest
import torch

from nnterp import StandardizedTransformer, Unavailable
from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("rembert")


class TestRemBert(FamilySuite):
    CHECKPOINT = "rembert"
    FAMILY = FAMILY
    NATIVE = rows(
        "rembert",
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

    def test_block_zero_reads_the_mapped_embedding(self, model):
        def body(m):
            return m.rembert.encoder.embedding_hidden_mapping_in.output, m.layers[0].layer_input

        mapped, entering = run(model, body)
        assert torch.equal(mapped, entering), "block 0 does not read the embedding mapped to the stream's width"

    @pytest.fixture(scope="class")
    def narrow(self, checkpoint, tmp_path_factory):
        # A copy whose token table is narrower than the stream, with fresh weights at that width.
        from transformers import AutoConfig, AutoModelForMaskedLM

        target = tmp_path_factory.mktemp("rembert_narrow")
        config = AutoConfig.from_pretrained(str(checkpoint), input_embedding_size=32)
        torch.manual_seed(0)
        AutoModelForMaskedLM.from_config(config).save_pretrained(str(target))
        for name in ("tokenizer.json", "tokenizer_config.json"):
            shutil.copy(checkpoint / name, target / name)
        assert json.loads((target / "config.json").read_text())["input_embedding_size"] == 32
        return StandardizedTransformer(str(target), dispatch=True, attn_implementation="eager")

    def test_a_narrow_token_table_has_no_token_embeddings(self, narrow):
        reason = narrow.support()["token_embeddings"]
        assert "input_embedding_size=32" in reason and "hidden_size=64" in reason
        with pytest.raises(Unavailable, match="embed_tokens.output"):
            with narrow.trace("The Eiffel Tower is in [MASK]"):
                narrow.token_embeddings.save()

        def body(m):
            return m.embed_tokens.output, m.layers[0].layer_input, m.layers[-1].layer_output, m.logits

        tokens, entering, last, logits = run(narrow, body)
        assert tokens.shape[-1] == 32 and entering.shape[-1] == 64
        assert torch.equal(narrow.project_on_vocab(last), logits)

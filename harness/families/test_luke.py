"""LUKE (`luke`), end to end: a post-LN encoder over words, and over words then entities when entities are given."""

import torch

from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("luke")


class TestLuke(FamilySuite):
    CHECKPOINT = "luke"
    FAMILY = FAMILY
    NATIVE = rows(
        "luke",
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

    def test_entities_join_the_sequence_inside_the_block(self, model):
        # With two entities, the block's stream is the words; its sublayers see the words, then the entities.
        encoded = dict(model.tokenizer("The Eiffel Tower is in [MASK]", return_tensors="pt"))
        words = encoded["input_ids"].shape[1]
        entities = {
            "entity_ids": torch.tensor([[3, 5]]),
            "entity_attention_mask": torch.ones(1, 2, dtype=torch.long),
            "entity_position_ids": torch.tensor([[[1, 2, -1], [5, -1, -1]]]),
        }

        def body(m):
            b = m.layers[0]
            return b.layer_input, b.self_attn.attention_output, b.mlp.mlp_output, b.layer_output, m.logits

        x, attn, mlp, out, logits = run(model, body, {**encoded, **entities})
        assert x.shape[1] == words and out.shape[1] == words and logits.shape[1] == words
        assert attn.shape[1] == words + 2 and mlp.shape[1] == words + 2
        plain = run(model, lambda m: m.layers[0].layer_output, encoded)
        assert not torch.equal(plain, out), "the entities did not reach the word stream"

        def pattern(m):
            return m.layers[0].self_attn.attention_probabilities

        assert tuple(run(model, pattern, {**encoded, **entities}).shape[-2:]) == (words + 2, words + 2)

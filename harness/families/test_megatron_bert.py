"""Megatron-BERT (`megatron-bert`), end to end: a bidirectional pre-LN encoder, its blocks regrouped, with a final norm."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("megatron-bert")


class TestMegatronBert(FamilySuite):
    CHECKPOINT = "megatron_bert"
    FAMILY = FAMILY
    NATIVE = rows("bert", "encoder.layer", "embeddings.word_embeddings", "encoder.ln", attn="attention", head="cls")
    # Stated, though empty: a class that inherits the suite's dict inherits a decoder's kind entries with it.
    EXPECTED_UNAVAILABLE: dict[str, str] = {}
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.predictions.decoder"

    def test_regrouping_moves_registrations_only(self, model, raw_model):
        # Every parameter is kept, once, and the block's old norm names answer with the identity.
        block = model.layers[0]._module
        assert "ln" not in block._modules and "ln" not in block.attention.__dict__
        probe = torch.randn(2, 3)
        assert block.ln(probe) is probe
        ours = sorted(p.numel() for p in model._module.parameters())
        assert ours == sorted(p.numel() for p in raw_model._module.parameters())
        assert len(list(model._module.parameters())) == len(dict(model._module.named_parameters()))

    def test_each_norm_runs_once_per_block(self, model):
        # The norms moved to the block run before their sublayers, once each: a second run would change the stream.
        def body(m):
            b = m.layers[0]
            return b.layer_input, b.attention_norm_output, b.layer_mid, b.mlp_norm_output

        x, normed, mid, mlp_normed = run(model, body)
        ln1 = model.layers[0].input_layernorm._module
        ln2 = model.layers[0].post_attention_layernorm._module
        assert torch.equal(normed, ln1(x)) and torch.equal(mlp_normed, ln2(mid))

    def test_stream_entering_block_zero_is_the_unnormed_embedding_sum(self, model):
        def body(m):
            return m.token_embeddings, m.bert.embeddings.output, m.layers[0].layer_input

        tokens, summed, entering = run(model, body)
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the sum of three tables, not the token table"

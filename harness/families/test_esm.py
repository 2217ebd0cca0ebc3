"""ESM (`esm`), end to end: a bidirectional pre-LN protein encoder, its blocks regrouped, under its masked-LM head."""

import torch

from nnterp_harness.encoder import MASKED
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("esm")


class TestEsm(FamilySuite):
    CHECKPOINT = "esm"
    FAMILY = FAMILY
    NATIVE = rows(
        "esm",
        "encoder.layer",
        "embeddings.word_embeddings",
        "encoder.emb_layer_norm_after",
        attn="attention",
        ln1="attention.LayerNorm",
        ln2="LayerNorm",
        head="lm_head",
    )
    EXPECTED_UNAVAILABLE = {}
    # The attention module norms its input itself: as the block calls it, it reads the stream.
    ATTENTION_NORM = None
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.decoder"

    def test_regrouping_moves_registrations_only(self, model, raw_model):
        # The attention still calls its output module by its old name, and every parameter is kept, once.
        block = model.layers[0]._module
        assert block.attention.output is block.attention.self_output
        ours = sorted(p.numel() for p in model._module.parameters())
        assert ours == sorted(p.numel() for p in raw_model._module.parameters())
        assert len(list(model._module.parameters())) == len(dict(model._module.named_parameters()))

    def test_attention_norm_output_is_what_the_heads_read(self, model):
        # The norm sits inside the attention module, so it feeds the heads (`self`), not the module.
        def body(m):
            return m.layers[0].layer_input, m.layers[0].attention_norm_output, m.layers[0].self_attn.self.input

        stream, normed, heads_in = run(model, body)
        assert torch.equal(normed, heads_in)
        assert not torch.equal(normed, stream)

    def test_token_dropout_zeroes_the_mask_rows_block_zero_reads(self, model):
        def body(m):
            return m.mask_token_mask, m.token_embeddings, m.layers[0].layer_input

        where, tokens, entering = run(model, body, MASKED)
        assert bool(where.any())
        assert float(entering[where].abs().max()) == 0.0, "block 0 reads a mask token's row"
        assert float(tokens[where].abs().max()) > 0.0, "token_embeddings is the table's row, before the zeroing"
        assert not torch.equal(tokens[~where], entering[~where]), "the other rows are rescaled"

"""RoBERTa-PreLayerNorm (`roberta-prelayernorm`), end to end: a pre-LN RoBERTa, its blocks regrouped, a final norm."""

import torch

from nnterp import StandardizedTransformer
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("roberta-prelayernorm")


class TestRobertaPreLayerNorm(FamilySuite):
    CHECKPOINT = "roberta_prelayernorm"
    FAMILY = FAMILY
    NATIVE = rows("roberta_prelayernorm", "encoder.layer", "embeddings.word_embeddings", None, attn="attention")
    # Stated, though empty: a class that inherits the suite's dict inherits a decoder's kind entries with it.
    EXPECTED_UNAVAILABLE: dict[str, str] = {}
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.decoder"

    def test_final_norm_is_the_trunks(self, model):
        # The trunk's norm, after the encoder, not the embedding's.
        assert model.norm is model.roberta_prelayernorm.LayerNorm
        assert model.norm is not model.roberta_prelayernorm.embeddings.LayerNorm

    def test_the_norm_moved_off_intermediate_runs_once(self, model):
        # `intermediate` still calls its old norm name, which answers with the identity: the block ran the norm.
        intermediate = model.layers[0].mlp.intermediate._module
        assert "LayerNorm" not in intermediate._modules
        probe = torch.randn(2, 3)
        assert intermediate.LayerNorm(probe) is probe

        def body(m):
            b = m.layers[0]
            return b.layer_mid, b.mlp_norm_output, b.mlp.up_proj.input

        mid, normed, up_in = run(model, body)
        assert torch.equal(normed, model.layers[0].post_attention_layernorm._module(mid))
        assert torch.equal(up_in, normed), "the up projection does not read the normed stream once"

    def test_bare_load_names_the_trunks_norm(self, checkpoint):
        bare = StandardizedTransformer(
            str(checkpoint), task="feature-extraction", dispatch=True, attn_implementation="eager"
        )
        assert bare.norm is bare.get("LayerNorm")
        with bare.trace("The Eiffel Tower is in [MASK]"):
            final = bare.final_norm_output.save()
            out = bare.output.save()
        assert torch.equal(final, out.last_hidden_state)

"""ESM C (`esmc`), end to end: a bidirectional pre-norm protein encoder whose adds divide each term, under its head."""

import math

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("esmc")


class TestEsmc(FamilySuite):
    CHECKPOINT = "esmc"
    FAMILY = FAMILY
    NATIVE = rows("esmc", "layers", "embed_tokens", "norm", head="lm_head")
    EXPECTED_UNAVAILABLE = {}
    VOCAB_PROJECTION = "lm_head.decoder"

    def test_contributions_are_the_outputs_divided_by_the_residual_scale(self, model):
        scale = math.sqrt(model.config.num_hidden_layers / 36)
        assert model.layers[0]._module.scaling_factor == scale

        def body(m):
            b = m.layers[0]
            return b.self_attn.output[0], b.self_attn.attention_output, b.mlp.output, b.mlp.mlp_output

        attn_raw, attn_out, mlp_raw, mlp_out = run(model, body)
        assert torch.equal(attn_out, attn_raw / scale)
        assert torch.equal(mlp_out, mlp_raw / scale)

    def test_a_written_contribution_is_what_the_block_adds(self, model):
        def body(m):
            b = m.layers[0]
            stream = b.layer_input
            b.self_attn.attention_output = torch.zeros_like(b.self_attn.attention_output)
            return stream, b.layer_mid

        stream, mid = run(model, body)
        assert torch.equal(stream, mid), "a zeroed attention_output still moved the stream"

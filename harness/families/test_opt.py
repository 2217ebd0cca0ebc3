"""OPT, end to end: no mlp module, and a feed-forward path flat over tokens."""

import torch

from nnterp.components import FlatResidual
from nnterp.families import opt
from nnterp_harness.suite import FamilySuite, rows


class TestOPT(FamilySuite):
    CHECKPOINT = "opt"
    FAMILY = opt
    NATIVE = rows(
        "model.decoder", "layers", "embed_tokens", "final_layer_norm", ln1="self_attn_layer_norm", ln2=None, mlp=None
    )
    EXPECTED_UNAVAILABLE = {"mlp_input": "no mlp module"}
    MLP_NORM = "final_layer_norm"
    MLP_WIDTH_KEY = "ffn_dim"

    def test_layer_mid_is_flat_over_tokens(self, model):
        assert opt.Layer.layer_mid.layout is FlatResidual
        with model.trace("The Eiffel Tower is in"):
            x = model.layers[0].layer_input.save()
            attn = model.layers[0].self_attn.attention_output.save()
            mid = model.layers[0].layer_mid.save()
        assert mid.shape == (x.shape[0] * x.shape[1], model.hidden_size)
        assert torch.equal(mid, (x + attn).reshape(-1, model.hidden_size))

    def test_the_block_norm_keeps_its_native_name(self, model):
        assert getattr(model.layers[0], "post_attention_layernorm", None) is None
        assert model.norm is model.model.decoder.final_layer_norm

    # OPT has no mlp module, so the suite's identity and writes over `mlp_output`
    # take their OPT form: the feed-forward contribution is `fc2`'s output.

    def test_contribution_identity(self, model):
        for index, block in enumerate(model.layers):
            with model.trace("The Eiffel Tower is in"):
                x = block.layer_input.save()
                attn = block.self_attn.attention_output.save()
                mid = block.layer_mid.save()
                ffn = block.fc2.output.save()
                out = block.layer_output.save()
            assert torch.equal(mid, (x + attn).reshape(-1, model.hidden_size)), index
            assert torch.equal(out, (mid + ffn).view_as(out)), index

    def test_module_boundaries(self, model):
        block = model.layers[1]
        with model.trace("The Eiffel Tower is in"):
            normed = block.attention_norm_output.save()
            ln1 = block.self_attn_layer_norm.output.save()
            mid = block.layer_mid.save()
            ln2_in = block.final_layer_norm.input.save()
            mlp_normed = block.mlp_norm_output.save()
            ln2_out = block.final_layer_norm.output.save()
        assert torch.equal(normed, ln1) and torch.equal(mid, ln2_in) and torch.equal(mlp_normed, ln2_out)
        assert mid.dim() == 2

    def test_boundary_writes_land(self, model):
        block = model.layers[0]
        with model.trace("The Eiffel Tower is in"):
            clean = model.logits.save()
        with model.trace("The Eiffel Tower is in"):
            x = block.layer_input.save()
            block.self_attn.attention_output = torch.zeros_like(block.self_attn.attention_output)
            mid = block.layer_mid.save()
            edited = model.logits.save()
        assert torch.equal(mid, x.reshape(-1, model.hidden_size))
        assert not torch.allclose(edited, clean)

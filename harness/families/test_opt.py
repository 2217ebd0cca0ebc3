"""OPT, end to end: no mlp module, and a feed-forward path flat over tokens."""

import torch

from nnterp.components import FlatResidual
from nnterp.families import opt
from nnterp_harness.suite import FamilySuite, rows


class TestOPT(FamilySuite):
    CHECKPOINT = "opt"
    FAMILY = opt
    NATIVE = rows("model.decoder", "layers", "embed_tokens", "final_layer_norm", ln1="self_attn_layer_norm", ln2=None, mlp=None)
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

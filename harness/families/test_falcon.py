"""Falcon, end to end: the 7B layout, the same weights with alibi, and the 40B layout.

On every class the block adds `(mlp + attn) + x`, not the identity's `(x + attn) + mlp`,
so the suite's identity holds to float32 ulps here, not bit for bit. The alibi class
loads the 7B weights with `alibi` written into a copy of the config, which moves
every interior value onto the forward's other path.
"""

import torch

from nnterp_harness import locate
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, with_config

FAMILY = family("falcon")


class TestFalcon(FamilySuite):
    CHECKPOINT = "falcon"
    FAMILY = FAMILY
    NATIVE = rows("transformer", "h", "word_embeddings", "ln_f", attn="self_attention", ln2=None)
    EXPECTED_UNAVAILABLE = {"layer_mid": "a parallel block"}
    MLP_NORM = "input_layernorm"
    MLP_NORM_BEFORE_ATTENTION = True
    MLP_WIDTH_KEY = "ffn_hidden_size"

    def test_mlp_output_survives_the_in_place_add(self, model):
        block = model.layers[0]
        with model.trace("The Eiffel Tower is in"):
            x = block.layer_input.save()
            attn = block.self_attn.attention_output.save()
            mlp = block.mlp.mlp_output.save()
            raw = block.mlp.output.save()
            out = block.layer_output.save()
        # The module's own output tensor has the attention added into it by the block.
        assert torch.allclose(raw, mlp + attn, atol=1e-6)
        assert not torch.allclose(raw, mlp, atol=1e-6)
        assert torch.allclose(out, x + attn + mlp, atol=1e-5)

    def test_an_in_place_edit_of_mlp_output_reaches_the_block(self, model):
        block = model.layers[0]
        with model.trace("The Eiffel Tower is in"):
            x = block.layer_input.save()
            attn = block.self_attn.attention_output.save()
            block.mlp.mlp_output[:] = 0
            out = block.layer_output.save()
        assert torch.allclose(out, x + attn, atol=1e-5)

    def test_the_interior_needs_eager(self, raw_model):
        from nnterp import StandardizedTransformer

        model = StandardizedTransformer(raw_model.repo_id, attn_implementation="sdpa")
        assert "eager" in model.support()["self_attn.attention_probabilities"][0]
        assert model.support()["self_attn.attention_premix"] is None


class TestFalconAlibi(TestFalcon):
    @classmethod
    def checkpoint_dir(cls, tmp_path_factory):
        target = tmp_path_factory.mktemp("falcon_alibi")
        return with_config(locate.checkpoint_path(cls.CHECKPOINT), target, alibi=True)

    def test_the_checkpoint_runs_alibi(self, model):
        assert model.config.alibi


class TestFalcon40B(FamilySuite):
    CHECKPOINT = "falcon_40b"
    FAMILY = FAMILY
    NATIVE = rows("transformer", "h", "word_embeddings", "ln_f", attn="self_attention", ln1="ln_attn", ln2="ln_mlp")
    EXPECTED_UNAVAILABLE = {"layer_mid": "a parallel block"}
    MLP_NORM_BEFORE_ATTENTION = True
    KV_HEADS_EXPANDED = True
    MLP_WIDTH_KEY = "ffn_hidden_size"

    def test_a_norm_per_sublayer(self, model):
        with model.trace("The Eiffel Tower is in"):
            attn_in = model.layers[0].attention_norm_output.save()
            mlp_in = model.layers[0].mlp_norm_output.save()
        assert not torch.equal(attn_in, mlp_in)

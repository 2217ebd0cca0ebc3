"""EXAONE 4, end to end: a post-norm block, sliding-window and global blocks."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("exaone4")

#: A post-norm block's rows: no pre-norm, the post-norms keep their native names.
POST_NORM_ROWS = rows("model", "layers", "embed_tokens", "norm", ln1=None, ln2=None)
POST_NORM_UNAVAILABLE = {"attention_norm_output": "post-norm block", "mlp_norm_output": "post-norm block"}


class TestExaone4(FamilySuite):
    CHECKPOINT = "exaone4"
    FAMILY = FAMILY
    NATIVE = POST_NORM_ROWS
    EXPECTED_UNAVAILABLE = POST_NORM_UNAVAILABLE
    ATTENTION_NORM = None
    MLP_NORM = None

    def test_the_contributions_are_the_post_norms(self, model):
        block = model.layers[0]
        with model.trace("The Eiffel Tower is in"):
            attn = block.self_attn.attention_output.save()
            attn_norm = block.post_attention_layernorm.output.save()
            mlp_module = block.mlp.output.save()
            mlp = block.mlp.mlp_output.save()
            mlp_norm = block.post_feedforward_layernorm.output.save()
        assert torch.equal(attn, attn_norm)
        assert torch.equal(mlp, mlp_norm) and not torch.equal(mlp, mlp_module)

    def test_the_blocks_mix_sliding_and_global_attention(self, model):
        assert model.config.layer_types == ["sliding_attention", "full_attention"]
        windows = [block.self_attn._module.sliding_window for block in model.layers]
        assert windows[0] == model.config.sliding_window

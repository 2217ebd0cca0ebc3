"""StableLM, end to end: the sequential block, and the parallel one under `use_parallel_residual`.

The parallel class loads the same weights with `use_parallel_residual` written into a
copy of the config (the sequential block's `post_attention_layernorm` weights go
unused). Both blocks add `(x + attn) + mlp`, the identity's own order, so the suite's
identity holds bit for bit on each.
"""

import torch

from nnterp_harness import locate
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, with_config

FAMILY = family("stablelm")


class TestStableLm(FamilySuite):
    CHECKPOINT = "stablelm"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

    def test_the_block_is_sequential(self, model):
        assert not model.layers[0]._module.use_parallel_residual
        assert model.support()["layer_mid"] is None


class TestStableLmParallel(FamilySuite):
    CHECKPOINT = "stablelm"
    FAMILY = FAMILY
    NATIVE = {key: value for key, value in LLAMA_ROWS.items() if key != "layers.0.post_attention_layernorm"}
    EXPECTED_UNAVAILABLE = {"layer_mid": "a parallel block"}
    MLP_NORM = "input_layernorm"
    MLP_NORM_BEFORE_ATTENTION = True

    @classmethod
    def checkpoint_dir(cls, tmp_path_factory):
        target = tmp_path_factory.mktemp("stablelm_parallel")
        return with_config(locate.checkpoint_path(cls.CHECKPOINT), target, use_parallel_residual=True)

    def test_one_norm_feeds_both_sublayers(self, model):
        assert getattr(model.layers[0], "post_attention_layernorm", None) is None
        with model.trace("The Eiffel Tower is in"):
            attn_in = model.layers[0].attention_norm_output.save()
            mlp_in = model.layers[0].mlp_norm_output.save()
        assert torch.equal(attn_in, mlp_in)

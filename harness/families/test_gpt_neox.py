"""GPT-NeoX, end to end: a parallel block with no stream between its sublayers, and the sequential one.

The parallel block sums `mlp + attn + x`, so the identity holds there to float32 ulps;
the sequential block (`use_parallel_residual=False`, the same weights under a
rewritten config) adds `(x + attn) + mlp` and holds it bit for bit.
"""

from nnterp.families import gpt_neox
from nnterp_harness import locate
from nnterp_harness.suite import FamilySuite, rows, with_config

NATIVE = rows("gpt_neox", "layers", "embed_in", "final_layer_norm", attn="attention")


class TestGPTNeoX(FamilySuite):
    CHECKPOINT = "gpt_neox"
    FAMILY = gpt_neox
    NATIVE = NATIVE
    EXPECTED_UNAVAILABLE = {"layer_mid": "a parallel block"}
    MLP_NORM_BEFORE_ATTENTION = False

    def test_the_head_answers_to_lm_head(self, model):
        assert model.lm_head is model.get("lm_head")


class TestGPTNeoXSequential(FamilySuite):
    CHECKPOINT = "gpt_neox"
    FAMILY = gpt_neox
    NATIVE = NATIVE

    @classmethod
    def checkpoint_dir(cls, tmp_path_factory):
        target = tmp_path_factory.mktemp("gpt_neox_sequential")
        return with_config(locate.checkpoint_path(cls.CHECKPOINT), target, use_parallel_residual=False)

    def test_the_block_is_sequential(self, model):
        assert not model.layers[0]._module.use_parallel_residual
        assert model.support()["layer_mid"] is None

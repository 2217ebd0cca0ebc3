"""EXAONE 4, end to end: a post-norm block, sliding-window and global blocks."""

from nnterp_harness.post_norm import PostNormChecks
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite

FAMILY = family("exaone4")


class TestExaone4(FamilySuite):
    CHECKS = (PostNormChecks,)
    CHECKPOINT = "exaone4"
    FAMILY = FAMILY

    def test_the_blocks_mix_sliding_and_global_attention(self, model):
        assert model.config.layer_types == ["sliding_attention", "full_attention"]
        windows = [block.self_attn._module.sliding_window for block in model.layers]
        assert windows[0] == model.config.sliding_window

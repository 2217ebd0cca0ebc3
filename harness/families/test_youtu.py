"""Youtu, end to end: a latent attention whose query/key and value widths differ."""

from nnterp import axis_size
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite

FAMILY = family("youtu")


class TestYoutu(FamilySuite):
    CHECKPOINT = "youtu"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS

    def test_query_key_and_value_widths(self, model):
        config = model.config
        attn = model.layers[0].self_attn
        assert axis_size(attn, "qk_head_dim") == config.qk_nope_head_dim + config.qk_rope_head_dim
        assert axis_size(attn, "head_dim") == config.v_head_dim
        assert config.v_head_dim != config.qk_nope_head_dim + config.qk_rope_head_dim
        assert model.head_dim == config.v_head_dim
        assert model.qk_head_dim == axis_size(attn, "qk_head_dim")

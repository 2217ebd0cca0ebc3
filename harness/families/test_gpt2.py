"""GPT-2, end to end: its own spellings, and queries that refuse in-place edits."""

import pytest

from nnterp import StandardizedTransformer
from nnterp.families import gpt2
from nnterp_harness.locate import checkpoint_path
from nnterp_harness.suite import FamilySuite, rows


class TestGPT2(FamilySuite):
    CHECKPOINT = "gpt2"
    FAMILY = gpt2
    NATIVE = rows("transformer", "h", "wte", "ln_f", attn="attn", ln1="ln_1", ln2="ln_2")
    REFUSES_IN_PLACE_QKV = True
    MLP_WIDTH_KEY = "n_inner"

    def test_c_proj_aliases_tell_the_two_projections_apart(self, model):
        block = model.layers[0]
        assert block.self_attn.o_proj is model.transformer.h[0].attn.c_proj
        assert block.mlp.down_proj is model.transformer.h[0].mlp.c_proj
        assert block.mlp.act_fn is model.transformer.h[0].mlp.act

    def test_intermediate_size_is_four_times_hidden_when_n_inner_is_unset(self, model):
        assert model.config.n_inner is None
        assert model.intermediate_size == 4 * model.hidden_size == model.layers[0].mlp.intermediate_size


def test_reorder_and_upcast_attn_takes_the_interior_off_the_interface():
    model = StandardizedTransformer(str(checkpoint_path("gpt2")), dispatch=True, attn_implementation="eager")
    assert model.support()["self_attn.attention_scores"] is None
    model.config.reorder_and_upcast_attn = True
    reason = model.support()["self_attn.attention_scores"][0]
    assert "reorder_and_upcast_attn" in reason
    assert model.support()["self_attn.attention_output"] is None
    with pytest.raises(Exception, match="reorder_and_upcast_attn"):
        with model.trace("The Eiffel Tower is in"):
            model.layers[0].self_attn.attention_scores.save()

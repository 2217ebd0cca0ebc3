"""GPT-SW3, end to end: GPT-2's modeling code under a type spelled with a dash."""

from nnterp import families
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("gpt-sw3")


class TestGPTSw3(FamilySuite):
    CHECKPOINT = "gpt_sw3"
    FAMILY = FAMILY
    NATIVE = rows("transformer", "h", "wte", "ln_f", attn="attn", ln1="ln_1", ln2="ln_2")
    REFUSES_IN_PLACE_QKV = True
    MLP_WIDTH_KEY = "n_inner"

    def test_the_checkpoint_names_its_own_type(self, model):
        assert model.config.model_type == "gpt-sw3"
        assert type(model._module).__name__ == "GPT2LMHeadModel"


def test_known_lists_the_dashed_spelling():
    assert "gpt-sw3" in families.known()
    assert "gpt_sw3" not in families.known()


def test_lookup_takes_either_spelling():
    assert families.lookup("gpt-sw3") is FAMILY
    assert families.lookup("gpt_sw3") is FAMILY
    assert FAMILY.__name__ == "nnterp.families.gpt_sw3"

"""GPT-NeoX, end to end: a parallel block with no stream between its sublayers."""

from nnterp.families import gpt_neox
from nnterp_harness.suite import FamilySuite, rows


class TestGPTNeoX(FamilySuite):
    CHECKPOINT = "gpt_neox"
    FAMILY = gpt_neox
    NATIVE = rows("gpt_neox", "layers", "embed_in", "final_layer_norm", attn="attention")
    EXPECTED_UNAVAILABLE = {"layer_mid": "a parallel block"}
    MLP_NORM_BEFORE_ATTENTION = False

    def test_the_head_answers_to_lm_head(self, model):
        assert model.lm_head is model.get("lm_head")

"""BioGPT, end to end: an inline feed-forward path, the head under its own name."""

from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("biogpt")


class TestBioGpt(FamilySuite):
    CHECKPOINT = "biogpt"
    FAMILY = FAMILY
    NATIVE = rows(
        "biogpt",
        "layers",
        "embed_tokens",
        "layer_norm",
        ln1="self_attn_layer_norm",
        ln2="final_layer_norm",
        mlp=None,
        head="output_projection",
    )
    EXPECTED_UNAVAILABLE = {"mlp_input": "no mlp module"}

    def test_the_head_answers_to_lm_head(self, model):
        assert model.lm_head is model.output_projection

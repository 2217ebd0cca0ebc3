"""LFM3 (`Lfm3ForCausalLM`), end to end: a short-convolution, a sliding and a full attention block, all sandwiched."""

from nnterp_harness.release import family
from nnterp_harness.short_convolution import WINDOW_UNAVAILABLE
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("lfm3")


class TestLfm3(FamilySuite):
    CHECKPOINT = "lfm3"
    FAMILY = FAMILY
    NATIVE = rows(
        "model",
        "layers",
        "embed_tokens",
        "embedding_norm",
        attn=None,
        ln1="operator_norm",
        ln2="post_operator_norm",
        mlp="feed_forward",
    )
    EXPECTED_UNAVAILABLE = WINDOW_UNAVAILABLE
    MLP_NORM = "pre_feedforward_layernorm"
    PREMIX_IS_HEAD_OUTPUTS = False

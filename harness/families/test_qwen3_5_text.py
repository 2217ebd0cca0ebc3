"""Qwen3.5 (`Qwen3_5ForCausalLM`), end to end: a gated DeltaNet block, then a gated-query attention block."""

from nnterp_harness.recurrent import ROUTING_NEEDED
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("qwen3_5_text")


class TestQwen3_5Text(FamilySuite):
    CHECKPOINT = "qwen3_5_text"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", attn=None)
    EXPECTED_UNAVAILABLE = ROUTING_NEEDED
    QUERY_GATED = True
    PREMIX_IS_HEAD_OUTPUTS = False

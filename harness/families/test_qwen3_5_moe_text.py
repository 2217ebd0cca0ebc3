"""Qwen3.5-MoE (`Qwen3_5MoeForCausalLM`), end to end: a gated DeltaNet block and an attention block, with mixtures."""

from nnterp_harness.recurrent import ROUTING_NEEDED
from nnterp_harness.release import family
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows

FAMILY = family("qwen3_5_moe_text")


class TestQwen3_5MoeText(FamilySuite):
    CHECKPOINT = "qwen3_5_moe_text"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", attn=None)
    EXPECTED_UNAVAILABLE = {**ROUTING_NEEDED, **ROUTED_EXPERTS}
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    QUERY_GATED = True
    PREMIX_IS_HEAD_OUTPUTS = False

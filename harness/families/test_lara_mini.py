"""Lara-mini (`LaraMiniForCausalLM`), end to end: a gated DeltaNet, a sliding and a full attention block, mixtures."""

from nnterp_harness.recurrent import ROUTING_NEEDED
from nnterp_harness.release import family
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows

FAMILY = family("lara_mini")


class TestLaraMini(FamilySuite):
    CHECKPOINT = "lara_mini"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", attn=None)
    EXPECTED_UNAVAILABLE = {**ROUTING_NEEDED, **ROUTED_EXPERTS}
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)

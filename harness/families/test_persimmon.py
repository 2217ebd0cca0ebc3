"""Persimmon, end to end: a sequential block with a fused query/key/value projection and per-head norms."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows

FAMILY = family("persimmon")


class TestPersimmon(FamilySuite):
    CHECKPOINT = "persimmon"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "final_layernorm")

    def test_the_queries_are_the_normed_split(self, model):
        attn = model.layers[0].self_attn
        with model.trace("The Eiffel Tower is in"):
            normed = attn.q_layernorm.output.save()
            queries = attn.attention_queries.save()
        rotary = attn._module.rotary_ndims
        # Past the rotary dimensions the queries are the normed split, heads first.
        assert torch.equal(queries[..., rotary:], normed.transpose(1, 2)[..., rotary:])

"""Granite SWA, end to end: Granite's scales, sliding-window blocks and per-head attention sinks."""

import torch

from nnterp_harness.release import family
from nnterp_harness.scaled import ResidualScaleChecks
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

FAMILY = family("granite_swa")


class TestGraniteSwa(FamilySuite):
    CHECKS = (ResidualScaleChecks, SlidingWindowChecks)
    CHECKPOINT = "granite_swa"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    SCALED_BLOCK = 1

    def test_the_sink_scales_each_querys_mix(self, model):
        attn = model.layers[0].self_attn
        groups = attn.num_heads // attn.num_kv_heads

        def body(m):
            a = m.layers[0].self_attn
            return a.attention_values, a.attention_scores, a.attention_probabilities, a.attention_head_outputs

        values, scores, pattern, heads = run(model, body)
        sinks = attn.sinks.detach() if hasattr(attn.sinks, "detach") else attn._module.sinks.detach()
        scale = (torch.logsumexp(scores, dim=-1) - sinks.view(1, -1, 1)).sigmoid()
        assert bool((scale < 1).all())
        mixed = pattern @ values.repeat_interleave(groups, dim=1)
        expected = (mixed * scale.unsqueeze(-1)).transpose(1, 2)
        assert torch.allclose(heads, expected, atol=1e-6)
        assert not torch.allclose(heads, mixed.transpose(1, 2), atol=1e-6)

"""MPT, end to end: ALiBi in an own-arithmetic attention, and an MLP that adds the residual itself."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import PROMPT, FamilySuite, rows

FAMILY = family("mpt")


class TestMpt(FamilySuite):
    CHECKPOINT = "mpt"
    FAMILY = FAMILY
    NATIVE = rows("transformer", "blocks", "wte", "norm_f", attn="attn", ln1="norm_1", ln2="norm_2", mlp="ffn")
    MLP_WIDTH_KEY = None
    REFUSES_IN_PLACE_QKV = True
    PLAIN_UP_PROJ = True

    def test_the_mlp_returns_the_stream_with_its_contribution_added(self, model):
        block = model.layers[0]
        found = []
        with model.trace(PROMPT):
            found.append(block.layer_mid.save())
            found.append(block.mlp.mlp_output.save())
            found.append(block.mlp.output.save())
        mid, contribution, returned = found
        assert torch.equal(returned, contribution + mid)

    def test_the_scores_carry_the_alibi_bias(self, model):
        found = []
        with model.trace(PROMPT):
            attention = model.layers[0].self_attn
            found.append(attention.attention_queries.save())
            found.append(attention.attention_keys.save())
            found.append(attention.attention_scores.save())
        queries, keys, scores = found
        scale = model.config.attn_config.softmax_scale
        bias = scores - (queries @ keys.transpose(-1, -2)) * scale
        # MPT's ALiBi is a per-head slope times how far each key sits before the last one,
        # the same on every query row.
        last = bias[:, :, -1:, :]
        causal = torch.ones(scores.shape[-2:], dtype=torch.bool).tril()
        assert torch.allclose(bias[..., causal], last.expand_as(bias)[..., causal], atol=1e-5)
        assert torch.allclose(last[..., -1], torch.zeros(()), atol=1e-5)
        assert bool((last[..., 0] < 0).all())

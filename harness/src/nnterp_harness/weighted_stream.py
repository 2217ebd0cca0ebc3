"""`WeightedStreamChecks`: the identity of a block that weighs (or gates) the stream before each add.

A family's test class declares it in `CHECKS`. Such a block computes
`layer_mid = stream_term(block, "attention", layer_input) + attention_output` and
`layer_output = stream_term(block, "mlp", layer_mid) + mlp_output`, where the family's
test class defines `stream_term` as the forward weighs the stream (Beam's depth
weights, ZAYA's per-channel gates). The suite's plain sum is replaced by that form,
bit for bit, and so are the suite's write checks: a zeroed or assigned contribution lands
through the weighted add.
"""

from __future__ import annotations

import torch

from .helpers import moved, run, scale_of


def contribution_host(block):
    """The block's `self_attn`, or its `linear_attn` on a hybrid's mixer block (MiniMax's lightning attention)."""
    attention = getattr(block, "self_attn", None)
    return block.linear_attn if attention is None else attention


class WeightedStreamChecks:
    """The identity and the writes of a block that weighs its stream before each add."""

    MID_IDENTITY = False

    def stream_term(self, block, sublayer: str, stream: torch.Tensor) -> torch.Tensor:
        """What the add of `sublayer` (``"attention"`` or ``"mlp"``) makes of the stream entering it."""
        raise NotImplementedError

    def weighted_terms(self, model, zero: str | None = None):
        count = len(model.layers)

        def body(m):
            read = []
            for i in range(count):
                b = m.layers[i]
                x = b.layer_input
                attn = contribution_host(b).attention_output
                if zero == "attention" and i == 0:
                    attn[:] = 0
                mid = b.layer_mid
                mlp = b.mlp.mlp_output
                if zero == "mlp" and i == 0:
                    mlp[:] = 0
                read.append((x, attn, mid, mlp, b.layer_output))
            return read, m.logits

        return run(model, body)

    def test_contribution_identity(self, model):
        read, _ = self.weighted_terms(model)
        for index, (x, attn, mid, mlp, out) in enumerate(read):
            block = model.layers[index]._module
            entering = self.stream_term(block, "attention", x)
            assert not torch.equal(entering, x), f"block {index}: the stream enters the attention add unweighted"
            assert torch.equal(mid, entering + attn), f"block {index}: layer_mid is not the weighted add"
            assert torch.equal(out, self.stream_term(block, "mlp", mid) + mlp), (
                f"block {index}: layer_output is not the weighted add"
            )

    def test_boundary_writes_land(self, model, clean):
        for sublayer in ("attention", "mlp"):
            read, logits = self.weighted_terms(model, zero=sublayer)
            x, attn, mid, mlp, out = read[0]
            block = model.layers[0]._module
            assert moved(logits, clean["logits"]), f"zeroing the {sublayer}'s contribution did not move the logits"
            if sublayer == "attention":
                assert float(attn.detach().abs().max()) == 0.0
                assert torch.equal(mid, self.stream_term(block, "attention", x)), "a zeroed attention did not land"
            else:
                assert float(mlp.detach().abs().max()) == 0.0
                assert torch.equal(out, self.stream_term(block, "mlp", mid)), "a zeroed mlp_output did not land"

        def assigned(m):
            b = m.layers[0]
            x = b.layer_input
            host = contribution_host(b)
            attn = host.attention_output * 2
            host.attention_output = attn
            return x, attn, b.layer_mid

        x, attn, mid = run(model, assigned)
        expected = self.stream_term(model.layers[0]._module, "attention", x) + attn
        assert torch.allclose(mid, expected, atol=1e-5 * scale_of(expected)), "an assigned contribution did not land"

        def landed(m):
            out = m.layers[0].layer_output * 2
            m.layers[0].layer_output = out
            return out, m.layers[1].layer_input

        written, received = run(model, landed)
        assert torch.equal(written, received), "the next block did not receive the assigned layer_output"

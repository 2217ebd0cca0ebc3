"""`PostLNChecks`: the contract of a post-LN family, whose norms follow the residual adds.

A family whose `ENVOYS` hold a `PostLNLayer` runs it (`nnterp_harness.contracts`). A post-LN block computes
`h = post_attention_layernorm(x + attn); out = output_norm(h + mlp)`, so the suite's
sum `layer_input + attention_output + mlp_output == layer_output` does not hold; the
post-LN form does, bit for bit, and replaces it here:

- `layer_mid == layer_input + attention_output`, and `layer_mid` is what the block's
  `post_attention_layernorm` reads;
- the block's `OUTPUT_NORM` reads `mlp_norm_output + mlp_output`, and its output is
  `layer_output`.

Writes land the same way: a zeroed contribution drops out of the sum its norm reads.
A post-LN model has no final norm, so `final_norm_output` is expected unavailable
(`NO_FINAL_NORM_UNAVAILABLE`) and the head reads the last `layer_output`.
"""

from __future__ import annotations

import torch

from .helpers import moved, run

#: `EXPECTED_UNAVAILABLE` entries of every post-LN family.
POST_LN_UNAVAILABLE = {
    "attention_norm_output": "a post-LN block",
    "final_norm_output": "a post-LN model",
}


class PostLNChecks:
    """Checks for a post-LN block; the class it is mixed into is a `FamilySuite`.

    `OUTPUT_NORM` names the block's norm after the MLP add, as a path from the block.
    """

    OUTPUT_NORM: str = ""
    ATTENTION_NORM = None

    def output_norm(self, block):
        return block.get(self.OUTPUT_NORM) if "." in self.OUTPUT_NORM else getattr(block, self.OUTPUT_NORM)

    def post_ln_terms(self, model, zero: str | None = None):
        """Per block, in forward order: the input, the two contributions, the stream between them, and the output norm."""
        count = len(model.layers)

        def body(m):
            read = []
            for i in range(count):
                b = m.layers[i]
                x = b.layer_input
                attn = b.self_attn.attention_output
                if zero == "attention" and i == 0:
                    attn[:] = 0
                mid = b.layer_mid
                normed = b.mlp_norm_output
                mlp = b.mlp.mlp_output
                if zero == "mlp" and i == 0:
                    mlp[:] = 0
                norm = self.output_norm(b)
                read.append((x, attn, mid, normed, mlp, norm.input, norm.output, b.layer_output))
            return read, m.logits

        read, logits = run(model, body)
        # The output norm's own boundaries, in the standard layout (`FamilySuite.native`).
        return [(*terms[:5], self.native(terms[5]), self.native(terms[6]), terms[7]) for terms in read], logits

    def test_contribution_identity(self, model):
        # The post-LN form: each add is exact, and each norm reads the sum.
        read, _ = self.post_ln_terms(model)
        for index, (x, attn, mid, normed, mlp, norm_in, norm_out, out) in enumerate(read):
            assert torch.equal(mid, x + attn), f"block {index}: layer_mid is not layer_input + attention_output"
            assert not torch.equal(normed, mid), f"block {index}: no norm follows the attention add"
            assert torch.equal(norm_in, normed + mlp), (
                f"block {index}: the output norm does not read mlp_norm_output + mlp_output"
            )
            assert torch.equal(norm_out, out), f"block {index}: layer_output is not the output norm's output"

    def test_boundary_writes_land(self, model, clean):
        for sublayer in ("attention", "mlp"):
            read, logits = self.post_ln_terms(model, zero=sublayer)
            x, attn, mid, normed, mlp, norm_in, _, _ = read[0]
            term = attn if sublayer == "attention" else mlp
            assert float(term.detach().abs().max()) == 0.0
            assert moved(logits, clean["logits"]), f"zeroing the {sublayer}'s contribution did not move the logits"
            if sublayer == "attention":
                assert torch.equal(mid, x), "a zeroed attention_output did not drop out of layer_mid"
            else:
                assert torch.equal(norm_in, normed), "a zeroed mlp_output did not drop out of the output norm's input"

        def landed(m):
            out = m.layers[0].layer_output * 2
            m.layers[0].layer_output = out
            return out, m.layers[1].layer_input

        written, received = run(model, landed)
        assert torch.equal(written, received), "the next block did not receive the assigned layer_output"

    def test_the_head_reads_the_last_block(self, model):
        last, head_in = run(model, lambda m: (m.layers[-1].layer_output, m.lm_head.input))
        assert torch.equal(last, head_in), "a post-LN model's head does not read the last layer_output"

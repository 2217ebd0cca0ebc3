"""`HyperConnectionChecks`: the contract of a block inside hyper-connections (DeepSeek-V4, HY-V4).

A family whose `ENVOYS` hold a `HyperConnectionLayer` runs it (`nnterp_harness.contracts`). Such a block takes and returns `hc_mult` parallel
streams, `Streams` (`[batch, seq, streams, hidden_size]`), and adds each sublayer's
`Residual` output to every stream with a weight per stream. The suite's statements
about the stream take their hyper-connection form here, each bit for bit:

- `layer_input` and `layer_output` carry every stream, and one block's output is the
  next block's input;
- `layer_mid == attention_post[..., None] * attention_output[..., None, :] +
  attention_comb^T @ layer_input` and `layer_output == mlp_post[..., None] *
  mlp_output[..., None, :] + mlp_comb^T @ layer_mid` (the contribution identity;
  the mixing term is the stream itself where the family keeps no mixing matrix);
- `skip_layers` hands on every stream, and the final norm reads them collapsed as
  `project_on_vocab` collapses them.
"""

from __future__ import annotations

import torch

from .helpers import moved, run


def spread(post: torch.Tensor, contribution: torch.Tensor, streams: torch.Tensor, comb) -> torch.Tensor:
    """`contribution` spread over the streams by `post`, plus `streams` mixed by `comb` (as they are without it)."""
    weighted = post.to(streams.dtype).unsqueeze(-1) * contribution.unsqueeze(-2)
    if comb is None:
        return weighted + streams
    return weighted + torch.matmul(comb.to(streams.dtype).transpose(-1, -2), streams)


class HyperConnectionChecks:
    """Checks for hyper-connection streams; the class it is mixed into is a `FamilySuite`.

    `COMB` says whether the hyper-connections mix the streams with a matrix.
    """

    COMB = True
    MID_IDENTITY = False

    def _streams(self, model) -> int:
        return model.config.get_text_config().hc_mult

    def test_the_streams_are_the_block_boundaries(self, model):
        count = len(model.layers)

        def body(m):
            found = []
            for i in range(count):
                block = m.layers[i]
                found.append((block.layer_input, block.layer_mid, block.layer_output))
            return found

        read = run(model, body)
        shape = (self._streams(model), model.hidden_size)
        for index, values in enumerate(read):
            for value in values:
                assert tuple(value.shape[2:]) == shape, f"block {index}: {tuple(value.shape)}"
            if index:
                assert torch.equal(values[0], read[index - 1][2]), f"block {index} does not take block {index - 1}'s"

    def test_contribution_identity(self, model):
        count = len(model.layers)
        comb = self.COMB

        def body(m):
            read = []
            for i in range(count):
                b = m.layers[i]
                read.append(
                    (
                        b.layer_input,
                        b.attention_post,
                        b.attention_comb if comb else None,
                        b.self_attn.attention_output,
                        b.layer_mid,
                        b.mlp_post,
                        b.mlp_comb if comb else None,
                        b.mlp.mlp_output,
                        b.layer_output,
                    )
                )
            return read

        for index, (x, post_a, comb_a, attn, mid, post_m, comb_m, mlp, out) in enumerate(run(model, body)):
            assert tuple(post_a.shape) == tuple(x.shape[:3]), f"block {index}: attention_post {tuple(post_a.shape)}"
            if comb:
                assert tuple(comb_a.shape) == (*x.shape[:3], x.shape[2]), f"block {index}: {tuple(comb_a.shape)}"
            assert torch.equal(spread(post_a, attn, x, comb_a), mid), (
                f"block {index}: the attention's output spread over the streams is not layer_mid"
            )
            assert torch.equal(spread(post_m, mlp, mid, comb_m), out), (
                f"block {index}: the MLP's output spread over the streams is not layer_output"
            )
            assert moved(out[:, :, 0], out[:, :, 1]), f"block {index}: the streams are one"

    def test_the_collapsed_streams_feed_the_norms(self, model):
        def body(m):
            b = m.layers[0]
            return b.attention_collapsed, b.input_layernorm.input, b.mlp_collapsed, b.post_attention_layernorm.input

        attention, attention_norm, mlp, mlp_norm = run(model, body)
        assert torch.equal(attention, attention_norm) and torch.equal(mlp, mlp_norm)

    def test_boundary_writes_land(self, model, clean):
        for key in ("self_attn.attention_output", "mlp.mlp_output", "layer_output", "attention_post", "mlp_post"):
            prefix, _, name = key.rpartition(".")

            def assign(m, prefix=prefix, name=name):
                host = getattr(m.layers[0], prefix) if prefix else m.layers[0]
                setattr(host, name, getattr(host, name) * 2)
                return m.logits

            def zero(m, prefix=prefix, name=name):
                host = getattr(m.layers[0], prefix) if prefix else m.layers[0]
                getattr(host, name)[:] = 0
                return m.logits

            assert moved(run(model, assign), clean["logits"]), f"assigning {key} did not move the logits"
            assert moved(run(model, zero), clean["logits"]), f"zeroing {key} in place did not move the logits"

        def landed(m):
            out = m.layers[0].layer_output * 2
            m.layers[0].layer_output = out
            return out, m.layers[1].layer_input

        written, received = run(model, landed)
        assert torch.equal(written, received), "the next block did not receive the assigned layer_output"

        comb = self.COMB

        def zeroed(m):
            b = m.layers[0]
            x = b.layer_input
            post = b.attention_post
            mixing = b.attention_comb if comb else None
            b.self_attn.attention_output[:] = 0
            return x, post, mixing, b.self_attn.attention_output, b.layer_mid

        x, post, mixing, attention, mid = run(model, zeroed)
        assert float(attention.detach().abs().max()) == 0.0
        assert torch.equal(spread(post, attention, x, mixing), mid), "a zeroed attention_output did not drop out"

    def test_skip_layers_hands_the_stream_straight_through(self, model):
        last = len(model.layers) - 1

        def body(m):
            before = m.layers[0].layer_output
            m.skip_layers(1, last)
            return before, m.layers[last].layer_output, m.norm.input

        before, after, final = run(model, body)
        assert torch.equal(before, after), "the last block's output is not block 0's"
        collapsed = model.family.collapse_streams(model, before)
        assert torch.equal(collapsed, final), "the final norm did not receive block 0's streams, collapsed"

    def test_skip_layers_with_a_given_stream(self, model, clean):
        n = clean["input_ids"].shape[1]
        zeros = torch.zeros(1, n, model.hidden_size)

        def body(m):
            m.skip_layers(0, 0, skip_with=zeros)
            return m.layers[1].layer_input, m.logits

        received, logits = run(model, body)
        assert tuple(received.shape) == (1, n, self._streams(model), model.hidden_size)
        assert float(received.detach().abs().max()) == 0.0, "block 1 did not receive skip_with on every stream"
        assert moved(logits, clean["logits"])

    def test_project_on_vocab_collapses_the_last_streams(self, model, clean):
        streams = run(model, lambda m: m.layers[-1].layer_output)
        assert torch.equal(model.project_on_vocab(streams), clean["logits"])

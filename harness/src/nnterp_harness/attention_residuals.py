"""`AttentionResidualChecks`: the suite's stream statements for blocks joined by block attention residuals (Inkling 2).

A family's test class declares it in `CHECKS`. Such a model keeps, besides the stream, the group states
(the embedding and the stream at the start of every later group of blocks), mixes them
with the block's stream before each sublayer, and restarts the stream where a group opens:
`layer_mid = [layer_input inside a group] + attention_output`,
`layer_output = layer_mid + mlp_output`. The statements take that form here:

- the contribution identity weighs the stream entering the attention add by zero on a
  block that opens a group (`stream_term`);
- `layer_mid` is read-only: an assignment refuses, an in-place edit lands on the add;
- the final norm reads the final mix of the group states and the last block's stream
  (`model.final_input`), so the logit lens equals the logits on that mix, and a
  skipped stack hands its stream to that mix;
- a full-attention block norms its queries' mix with `q_input_layernorm`, aliased
  `input_layernorm`;
- the pattern joins a sink logit per token and head (`sink_proj` of the attention's
  input) before the softmax and drops it after;
- the native `mlp_input` module (the MLP's mix) is kept as `E_mlp_input` beside the
  standard value.
"""

from __future__ import annotations

import pytest
import torch

from .helpers import moved, perturbed, run, scale_of
from .weighted_stream import WeightedStreamChecks


class AttentionResidualChecks(WeightedStreamChecks):
    """The identity, the writes and the head of blocks joined by block attention residuals."""

    ATTENTION_SINK = True
    sinks: torch.Tensor | None = None

    @pytest.fixture(autouse=True)
    def _sinks(self, model):
        # Each token's sink logit per head is projected from the attention's input (`sink_proj`): block 0's on the
        # prompt, which the suite compares block 0's pattern with.
        sinks = run(model, lambda m: m.layers[0].self_attn.sink_proj.output)
        type(self).sinks = sinks.detach().transpose(1, 2).unsqueeze(-1)

    def pattern_from_scores(self, scores):
        joined = torch.cat([scores, self.sinks.to(scores.dtype)], dim=-1).float()
        return torch.softmax(joined, dim=-1)[..., :-1].to(scores.dtype)

    def stream_term(self, block, sublayer, stream):
        if sublayer == "attention" and block.is_block_boundary:
            return torch.zeros_like(stream)
        return stream

    def test_every_layer_is_renamed(self, model):
        # A full-attention block norms the queries' mix with `q_input_layernorm`, aliased `input_layernorm`.
        for index, block in enumerate(model.layers):
            full = model.config.layer_types[index] == "hybrid"
            rows = {
                "self_attn": "self_attn",
                "input_layernorm": "q_input_layernorm" if full else "input_layernorm",
                "post_attention_layernorm": "post_attention_layernorm",
                "mlp": "mlp",
            }
            assert block is model.get(f"model.layers.{index}")
            for standard, native in rows.items():
                envoy = getattr(block, standard)
                assert envoy is block.get(native), f"layers.{index}.{standard} is not {native}"
                assert envoy.path == f"{block.path}.{native}"

    def test_contribution_identity(self, model):
        read, _ = self.weighted_terms(model)
        for index, (x, attn, mid, mlp, out) in enumerate(read):
            block = model.layers[index]._module
            entering = self.stream_term(block, "attention", x)
            assert torch.equal(mid, entering + attn), f"block {index}: layer_mid is not the add"
            assert torch.equal(out, mid + mlp), f"block {index}: layer_output is not layer_mid + mlp_output"

    def _write_moves_logits(self, model, clean, key, block):
        if key != "layer_mid":
            return super()._write_moves_logits(model, clean, key, block)
        with pytest.raises(AttributeError, match="read-only"):
            run(model, lambda m: setattr(m.layers[block], "layer_mid", torch.zeros(1)))

        def body(m):
            mid = m.layers[block].layer_mid
            mid[:] = perturbed(mid)
            mlp = m.layers[block].mlp.mlp_output
            return mid, m.layers[block].layer_output - mlp, m.logits

        edited, kept, logits = run(model, body)
        assert torch.allclose(kept, edited, atol=1e-5 * scale_of(edited)), "the edited layer_mid left the final add"
        assert moved(logits, clean["logits"]), f"editing layer_mid on block {block} did not move the logits"

    def test_skip_layers_hands_the_stream_straight_through(self, model):
        last = len(model.layers) - 1

        def body(m):
            before = m.layers[0].layer_output
            m.skip_layers(1, last)
            return before, m.layers[last].layer_output, m.model.final_input.inputs

        before, after, (args, _) = run(model, body)
        assert torch.equal(before, after), "the last block's output is not block 0's"
        assert torch.equal(before, args[1]), "the final mix did not receive block 0's stream"

    def test_project_on_vocab_is_the_logit_lens(self, model):
        def body(m):
            last = m.layers[-1].layer_output
            mixed = m.model.final_input.output[0]
            return mixed, m.project_on_vocab(mixed), last, m.logits

        mixed, inside, last, logits = run(model, body)
        assert torch.equal(model.project_on_vocab(mixed), logits), "project_on_vocab(final mix) is not logits"
        assert torch.equal(inside, logits), "project_on_vocab inside the trace is not logits"
        assert moved(model.project_on_vocab(last), logits), "the final mix left the last block's stream as it was"

    def test_the_native_mlp_input_module_is_kept_beside_the_value(self, model):
        for block in model.layers:
            assert block.E_mlp_input._module is block._module.mlp_input, "the native mlp_input module is not kept"

        def body(m):
            block = m.layers[1]
            return block.E_mlp_input.output[0], block.post_attention_layernorm.input, block.mlp_input, block.mlp.input

        mixed, normed_in, value, mlp_in = run(model, body)
        assert torch.equal(mixed, normed_in), "the MLP's norm does not read the native mix"
        assert torch.equal(value, mlp_in), "mlp_input is not what the MLP is called with"


__all__ = ["AttentionResidualChecks"]

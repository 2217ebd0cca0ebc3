"""`AltUpChecks`: the contract of a block inside AltUp's parallel streams (Gemma 3n).

A family's test class declares it (``CHECKS = (AltUpChecks,)``). Such a block takes and returns every stream, laid out
`[streams, batch, seq, hidden]` by the model and served as `Streams`
(`[batch, seq, streams, hidden_size]`) in `layer_input` and `layer_output`; its
sublayers update the active stream of AltUp's prediction. The suite's statements
about the stream take their AltUp form here, each bit for bit:

- `layer_input` and `layer_output` are the block's input and output with the stream
  axis third, and the stream one block hands on is the next block's input;
- `layer_mid == (active_prediction + attention_output + laurel_output) / sqrt(2)` and
  `active_output == layer_mid + mlp_output` (the contribution identity), and AltUp's
  correction of the prediction towards `active_output`, plus `per_layer_output` on
  every stream but the first, is `layer_output`;
- the final norm reads the streams of the last block run, collapsed as
  `project_on_vocab` collapses them.
"""

from __future__ import annotations

import math

import torch

from .helpers import PROMPT, moved, perturbed, run


def streams_first(value: torch.Tensor) -> torch.Tensor:
    """A `Streams` value laid out the model's way, `[streams, batch, seq, hidden]`."""
    return value.permute(2, 0, 1, 3)


class AltUpChecks:
    """Checks for AltUp's streams; the class it is mixed into is a `FamilySuite`.

    `SKIPPED_BLOCK` is the block `skip_layers` skips with a given stream: one whose keys
    and values no later block reuses, since a block reusing them fails without them.
    """

    SKIPPED_BLOCK = 0

    def _collapse(self, model, streams):
        return model.family.collapse_streams(model, streams)

    def test_layer_input_is_the_block_input(self, model):
        count = len(model.layers)

        def body(m):
            found = []
            for i in range(count):
                block = m.layers[i]
                found.append((block.input, block.layer_input, block.layer_output))
            return found

        read = run(model, body)
        streams = model.config.get_text_config().altup_num_inputs
        for index, (raw, value, _) in enumerate(read):
            assert tuple(value.shape[2:]) == (streams, model.hidden_size), f"block {index}: {tuple(value.shape)}"
            assert torch.equal(streams_first(value), raw), f"block {index}: layer_input is not the block's input"
            if index:
                assert torch.equal(value, read[index - 1][2]), f"block {index} does not take block {index - 1}'s output"

    def test_layer_output_is_the_tensor(self, model):
        count = len(model.layers)

        def body(m):
            return [(m.layers[i].output, m.layers[i].layer_output) for i in range(count)]

        for index, (raw, out) in enumerate(run(model, body)):
            assert isinstance(raw, torch.Tensor) and not type(model.layers[index]).returns_tuple
            assert torch.equal(streams_first(out), raw), f"block {index}: layer_output is not the block's output"

    def test_the_stream_axis_is_a_view(self, model, clean):
        """An in-place edit of one stream of `layer_output` lands in that stream only."""

        def body(m):
            m.layers[0].layer_output[:, :, 1] = 0
            return m.layers[0].output, m.logits

        raw, logits = run(model, body)
        assert float(raw[1].detach().abs().max()) == 0.0 and float(raw[0].detach().abs().max()) > 0.0
        assert moved(logits, clean["logits"]), "zeroing stream 1 did not move the logits"

    def test_contribution_identity(self, model):
        count = len(model.layers)

        def body(m):
            read = []
            for i in range(count):
                b = m.layers[i]
                read.append(
                    (
                        b.altup_predictions,
                        b.active_prediction,
                        b.laurel_output,
                        b.self_attn.attention_output,
                        b.layer_mid,
                        b.mlp.mlp_output,
                        b.active_output,
                        b.per_layer_output,
                        b.layer_output,
                    )
                )
            return read

        chosen = model.config.get_text_config().altup_active_idx
        for index, values in enumerate(run(model, body)):
            predictions, active, laurel, attention, mid, mlp, after, per_layer, out = values
            assert torch.equal(predictions[:, :, chosen], active), (
                f"block {index}: active_prediction is not stream {chosen} of altup_predictions"
            )
            assert torch.equal((active + attention + laurel) / math.sqrt(2), mid), (
                f"block {index}: (active_prediction + attention_output + laurel_output) / sqrt(2) is not layer_mid"
            )
            assert torch.equal(mid + mlp, after), f"block {index}: layer_mid + mlp_output is not active_output"
            corrected = model.layers[index]._module.altup.correct(streams_first(predictions), after)
            corrected[1:] += per_layer
            assert torch.equal(corrected, streams_first(out)), (
                f"block {index}: AltUp's correction towards active_output is not layer_output"
            )
            assert moved(out[:, :, chosen], active), f"block {index}: the correction left the active stream unchanged"

    def test_boundary_writes_land(self, model, clean):
        for key in ("self_attn.attention_output", "mlp.mlp_output", "laurel_output", "layer_output"):
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

        def zeroed(m):
            b = m.layers[0]
            active, laurel = b.active_prediction, b.laurel_output
            b.self_attn.attention_output[:] = 0
            return active, laurel, b.self_attn.attention_output, b.layer_mid

        active, laurel, attention, mid = run(model, zeroed)
        assert float(attention.detach().abs().max()) == 0.0
        assert torch.equal((active + laurel) / math.sqrt(2), mid), "a zeroed attention_output did not drop out"

    def test_module_boundaries(self, model, clean):
        for index in sorted({0, len(model.layers) - 1}):
            norm, value, attn_in = run(
                model,
                lambda m: (
                    m.layers[index].input_layernorm.output,
                    m.layers[index].attention_norm_output,
                    m.layers[index].self_attn.input,
                ),
            )
            assert torch.equal(value, norm) and torch.equal(value, attn_in), f"block {index}: attention_norm_output"
            norm, value, mlp_in, mlp_input = run(
                model,
                lambda m: (
                    m.layers[index].pre_feedforward_layernorm.output,
                    m.layers[index].mlp_norm_output,
                    m.layers[index].mlp.input,
                    m.layers[index].mlp_input,
                ),
            )
            assert torch.equal(value, norm) and torch.equal(value, mlp_in) and torch.equal(mlp_input, mlp_in)
            for key in ("attention_norm_output", "mlp_norm_output", "layer_mid", "active_prediction", "active_output"):

                def body(m, key=key):
                    setattr(m.layers[index], key, perturbed(getattr(m.layers[index], key)))
                    return m.logits

                assert moved(run(model, body), clean["logits"]), (
                    f"writing {key} on block {index} did not move the logits"
                )

    def test_skip_layers_hands_the_stream_straight_through(self, model):
        last = len(model.layers) - 1

        def body(m):
            before = m.layers[0].layer_output
            m.skip_layers(1, last)
            return before, m.layers[last].layer_output, m.norm.input

        before, after, final = run(model, body)
        assert torch.equal(before, after), "the last block's output is not block 0's"
        assert torch.equal(self._collapse(model, before), final), "the final norm did not receive block 0's streams"

    def test_skip_layers_with_a_given_stream(self, model, clean):
        n = clean["input_ids"].shape[1]
        zeros = torch.zeros(1, n, model.hidden_size)

        index = self.SKIPPED_BLOCK

        def body(m):
            m.skip_layers(index, index, skip_with=zeros)
            return m.layers[index + 1].layer_input, m.logits

        received, logits = run(model, body)
        streams = model.config.get_text_config().altup_num_inputs
        assert tuple(received.shape) == (1, n, streams, model.hidden_size)
        assert float(received.detach().abs().max()) == 0.0, (
            f"block {index + 1} did not receive skip_with on every stream"
        )
        assert moved(logits, clean["logits"])

    def test_renamed_model_equals_raw_model(self, model, raw_model):
        count = len(model.layers)
        native = self.NATIVE["layers"]

        def standard(m):
            return [m.layers[i].layer_output for i in range(count)] + [m.logits]

        def raw(m):
            layers = m.get(native)
            return [layers[i].output for i in range(count)] + [m.output.logits]

        ours, theirs = run(model, standard, PROMPT), run(raw_model, raw, PROMPT)
        for index, (a, b) in enumerate(zip(ours[:-1], theirs[:-1])):
            assert torch.equal(streams_first(a), b), f"block {index}'s output differs from the raw model's"
        assert torch.equal(ours[-1], theirs[-1]), "the logits differ from the raw model's"

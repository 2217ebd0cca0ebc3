"""Gemma 3n, text only (`Gemma3nForCausalLM`): a sandwich block inside AltUp's parallel streams, with laurel.

The model carries `altup_num_inputs` copies of the residual stream. Before the blocks
it stacks the token embedding with magnitude-matched projections of it
(`altup_projections`); after them it projects every stream but the first back
(`altup_unembed_projections`), matches their magnitudes to the first, averages them
and norms the average for the head. With `p` the active stream of AltUp's prediction
(`predictions = altup.predict(streams)`, `p = predictions[altup_active_idx]`) a block is

`n = input_layernorm(p);
h = (p + post_attention_layernorm(self_attn(n)) + laurel(n)) / sqrt(2);
a = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h)));
out = altup.correct(predictions, a)`, then `out[1:] += post_per_layer_input_norm(...)`,
the per-layer term computed from the corrected active stream and the block's slice of
the per-layer token embedding.

`laurel(n)` is `n + post_laurel_norm(linear_right(linear_left(n)))`. The correction adds
`(a - p)` to each stream with a per-token weight per stream (`correction_coefs` of a
router over `a`, plus one).

Decisions, stated as the values serve them:

- `layer_input` and `layer_output` are every stream, `Streams`
  (`[batch, seq, streams, hidden_size]`): the model's own `[streams, batch, seq,
  hidden]` tensor seen with the stream axis third. A read is a view, so an edit in
  place lands; an assignment is laid back out the model's way. `steer` adds to every
  stream, and `skip_layers` hands on every stream (a `skip_with` of
  `[batch, seq, hidden_size]` becomes every stream). A block whose keys and values a
  later block reuses cannot be skipped: the later block finds none and the forward
  fails.
- The other stream values are the active stream, `Residual`: stream `altup_active_idx`
  (0 in the released configs, the stream the head matches the others' magnitudes to),
  which the block's sublayers update:
  `active_prediction` (`p`), `attention_norm_output` (`n`), `laurel_output`,
  `layer_mid` (`h`), `mlp_norm_output`, `active_output` (`a`), and `per_layer_output`,
  the term added to the other streams. `altup_predictions` is every stream of the
  prediction, `Streams`.
- The contributions are the post-normed sublayer outputs, read on the sibling norms
  as on the other sandwich blocks, so the identity reads
  `layer_mid == (active_prediction + attention_output + laurel_output) / sqrt(2)` and
  `active_output == layer_mid + mlp_output`, both bit for bit; AltUp's correction then
  carries `active_output - active_prediction` into every stream of `layer_output`.
- `project_on_vocab` collapses a `Streams` value the way the model does before its
  norm (so on the last block's `layer_output` it gives the logits bit for bit) and
  norms and projects a `Residual` value as it stands, then softcaps where the config
  sets `final_logit_softcapping`.

The attention norms each head's queries, keys and values (the values without a
weight), scales its scores by one and calls the shared eager interface; blocks past
`num_kv_shared_layers` have no key or value projection and hand the interface the
keys and values an earlier block of their kind stored. The MLP's width is the
config's per-block list (the root's `intermediate_size` is that list, each block's
`mlp.intermediate_size` its own), and blocks with a non-zero
`activation_sparsity_pattern` entry cut the gate at a Gaussian quantile before
`act_fn`, so `mlp_activation` is sparse there. The embeddings scale by
`sqrt(hidden_size)`.
"""

import torch
from transformers.models.gemma3n.modeling_gemma3n import (
    Gemma3nTextAttention,
    Gemma3nTextDecoderLayer,
    Gemma3nTextMLP,
)

from nnterp.components import (
    EProperty,
    LogitLens,
    Residual,
    SandwichAttention,
    SandwichLayer,
    SandwichMlp,
    Streams,
    always,
)

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


def _streams_third(value):
    """The model's `[streams, batch, seq, hidden]` seen as `[batch, seq, streams, hidden]` (a view)."""
    return value.permute(1, 2, 0, 3)


def _streams_first(value):
    """A `[batch, seq, streams, hidden]` tensor laid out the model's way, `[streams, batch, seq, hidden]`."""
    return value.permute(2, 0, 1, 3).contiguous()


class Layer(SandwichLayer):
    """Gemma 3n's block: AltUp's prediction, the sandwich sublayers with laurel on the active stream, the correction.

    Its forward is instrumented, because AltUp's prediction and the stream it corrects
    towards are read at the `altup.predict` and `altup.correct` calls inside it.
    """

    sourced = True

    def skip_with(self, stream):
        """`stream` laid out as the block returns it; a `[batch, seq, hidden_size]` one becomes every stream."""
        if stream.dim() == 3:
            count = self._module.config.altup_num_inputs
            return stream.unsqueeze(0).expand(count, *stream.shape).contiguous()
        return _streams_first(stream)

    @EProperty("input", description="Every AltUp stream entering the block, the stream axis third")
    def layer_input(self, value) -> Streams:
        return _streams_third(value)

    @layer_input.postprocess
    def layer_input(self, value):
        return _streams_first(value)

    @EProperty(
        "source.self_altup_predict_0.output",
        unavailable=always,
        description="AltUp's prediction of every stream, which the block corrects at its end",
    )
    def altup_predictions(self, value) -> Streams:
        return _streams_third(value)

    @altup_predictions.postprocess
    def altup_predictions(self, value):
        return _streams_first(value)

    @EProperty(
        "input_layernorm.input", description="The active stream of AltUp's prediction, which the sublayers update"
    )
    def active_prediction(self, value) -> Residual:
        return value

    @EProperty(
        "laurel.output", description="What laurel adds beside the attention: its normed input plus a low-rank map"
    )
    def laurel_output(self, value) -> Residual:
        return value

    @EProperty(
        "pre_feedforward_layernorm.input",
        description="The active stream after the attention and laurel adds, scaled by one over sqrt(2)",
    )
    def layer_mid(self, value) -> Residual:
        return value

    @EProperty(
        "source.self_altup_correct_0.inputs",
        unavailable=always,
        description="The active stream after the MLP add, which AltUp's correction carries into every stream",
        select=1,
    )
    def active_output(self, value) -> Residual:
        return value

    @EProperty(
        "post_per_layer_input_norm.output",
        description="What the block adds to every stream but the first, from its slice of the per-layer input",
    )
    def per_layer_output(self, value) -> Residual:
        return value

    @EProperty("output", description="Every AltUp stream leaving the block, the stream axis third")
    def layer_output(self, value) -> Streams:
        return _streams_third(value)

    @layer_output.postprocess
    def layer_output(self, value):
        return _streams_first(value)


def collapse_streams(model, streams):
    """The one stream the model norms for its head, from every stream of a `[batch, seq, streams, hidden]` value.

    Every stream but the first goes through its `altup_unembed_projections` module and is
    rescaled to the first stream's root-mean-square; the streams are then averaged. A
    `Residual` (one stream) comes back as it is.
    """
    if streams.dim() != 4:
        return streams
    first = streams[:, :, 0]
    target = torch.mean(first**2, dim=-1, keepdim=True) ** 0.5
    parts = [first]
    for index in range(1, streams.shape[2]):
        projected = model.model.altup_unembed_projections[index - 1](streams[:, :, index])
        magnitude = torch.sqrt(torch.mean(projected**2, dim=-1, keepdim=True).clamp(min=1e-5))
        parts.append(projected * target / magnitude)
    return torch.mean(torch.stack(parts), dim=0)


project_on_vocab = LogitLens(streams=collapse_streams, softcap="final_logit_softcapping")


ENVOYS = {Gemma3nTextDecoderLayer: Layer, Gemma3nTextAttention: SandwichAttention, Gemma3nTextMLP: SandwichMlp}

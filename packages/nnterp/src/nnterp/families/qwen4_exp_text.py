"""Qwen4-Exp (`Qwen4ExpForCausalLM`): gated DeltaNet and indexed attention blocks, all mixtures, inside flattened
hyper-connections.

The model carries `hc_count` copies of the residual stream side by side in one
tensor, `[batch, seq, hc_count * hidden_size]` (the embedding repeated). Before each
sublayer a gated-residual module (`attn_hyper_connection`, `mlp_hyper_connection`)
RMS-norms every stream, weighs each channel of each stream by a low-rank sigmoid
gate, averages the streams into one (the sublayer's input, already normed: there
is no `input_layernorm`) and returns with it the streams as they entered and a weight
per stream, `2 * sigmoid(.)`. The sublayer's output is added to every stream with its
weight, and the streams are not mixed. Some blocks (`ple_layer_ids`, DeltaNet blocks
only) first add a per-layer n-gram embedding (`ple`) to the streams: hashed n-gram
features of the token ids, gated per stream by the normed streams and passed through
a dilated short convolution. With `collapse_a`, `post_a` from
`attn_hyper_connection(x + ple(x))` and `collapse_m`, `post_m` from
`mlp_hyper_connection(h)`:

`h = post_a * mixer(collapse_a) + (x + ple(x)); out = post_m * mlp(collapse_m) + h`,

with `mixer` the block's `linear_attn` or `self_attn`.

Decisions, stated as the values serve them:

- `layer_input`, `layer_mid` (the input of `mlp_hyper_connection`), `layer_output`
  and `ple_output` are every stream, `Streams` (`[batch, seq, streams, hidden_size]`),
  unflattened on read and flattened back on write; `steer` adds to every stream, and
  `skip_layers` hands on every stream (a `[batch, seq, hidden_size]` `skip_with` is
  copied into every stream). `ple_output` is unavailable on the blocks without one.
- `attention_collapsed` and `mlp_collapsed` are the sublayers' inputs, which are
  also `attention_norm_output` and `mlp_norm_output`; `attention_post` and
  `mlp_post` are the `StreamWeights`; `attention_comb` and `mlp_comb` are
  unavailable. The identity reads `layer_mid == attention_post[..., None] *
  attention_output[..., None, :] + (layer_input + ple_output)` and `layer_output ==
  mlp_post[..., None] * mlp_output[..., None, :] + layer_mid`, bit for bit.
- There is no final norm: the model's last gated-residual module
  (`hyper_connection_mixer`, aliased `norm`) norms and averages the last block's
  streams into the one stream `lm_head` reads, so `norm.input` is the flattened
  streams and `final_norm_output` the collapsed stream. `project_on_vocab` collapses
  a `Streams` value (or its flattened form) the same way, so on the last block's
  `layer_output` it gives the logits bit for bit, and projects a `Residual` as it stands.

The DeltaNet blocks are Qwen3.5's gated DeltaNet (`LinearAttention`; the state per
token needs `nnterp.route_kernels(model.family, "torch")`). The attention blocks
(`indexed_attention`) are Qwen3.5's gated-query attention with a sparse indexer:
per query, it scores blocks of `indexer_compress_ratio` earlier keys (pooled, normed
and rotated) and keeps the best `indexer_budget` tokens' worth plus the unfinished
tail, masking out the rest, so `attention_scores` carry that selection in the mask.
The mixture is Qwen2-MoE's: a softmax router, grouped experts and a shared expert
gated by a sigmoid, `shared_expert_output` being the gated product.

The Qwen4-Exp wrapper (`qwen4_exp`) is served by `nnterp.families.qwen4_exp`.
"""

from transformers.models.qwen4_exp.modeling_qwen4_exp import (
    Qwen4ExpTextAttention,
    Qwen4ExpTextDecoderLayer,
    Qwen4ExpTextGatedDeltaNet,
    Qwen4ExpTextMLP,
    Qwen4ExpTextSparseMoeBlock,
)

from nnterp.components import (
    Attention,
    EProperty,
    HybridLayer,
    HyperConnectionLayer,
    LinearAttention,
    Mlp,
    Residual,
    Streams,
    StreamWeights,
    needs_child,
    unavailable,
)
from nnterp.components.logit_lens import LogitLens
from nnterp.families import qwen2_moe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.hyper_connection_mixer": "norm",
}

#: Why the streams have no mixing matrix.
_UNMIXED = "these hyper-connections add the streams back unmixed: each stream keeps itself and gains a weighted output"


def _stream_count(envoy):
    """The streams a block of `envoy`'s model carries."""
    return envoy.root._module.config.get_text_config().hc_count


def _unflattened(envoy, value):
    """`[batch, seq, streams * hidden_size]` as `[batch, seq, streams, hidden_size]`."""
    return value.unflatten(-1, (_stream_count(envoy), -1))


class Layer(HyperConnectionLayer, HybridLayer):
    """Qwen4-Exp's block: flattened hyper-connection streams without mixing, an n-gram embedding on some blocks."""

    COMB = False

    def skip_with(self, stream):
        """`stream` flattened as the block returns it; a `[batch, seq, hidden_size]` one is copied into every stream."""
        if stream.dim() == 3 and stream.shape[-1] == self._module.attn_hyper_connection.hidden_size:
            stream = stream.unsqueeze(2).expand(-1, -1, _stream_count(self), -1)
        if stream.dim() == 4:
            stream = stream.flatten(-2).contiguous()
        return stream

    @EProperty("input", description="Every residual stream entering the block")
    def layer_input(self, value) -> Streams:
        return _unflattened(self, value)

    @layer_input.postprocess
    def layer_input(self, value):
        return value.flatten(-2)

    @EProperty(
        "ple.output",
        description="The per-layer n-gram embedding the block adds to every stream before the attention's "
        "hyper-connection",
        unavailable=needs_child("ple"),
    )
    def ple_output(self, value) -> Streams:
        return _unflattened(self, value)

    @ple_output.postprocess
    def ple_output(self, value):
        return value.flatten(-2)

    @EProperty(
        "attn_hyper_connection.output",
        select=0,
        description="The streams normed and collapsed into the one the mixer reads",
    )
    def attention_collapsed(self, value) -> Residual:
        return value

    @EProperty(
        "attn_hyper_connection.output",
        select=0,
        description="The normed stream the mixer reads: every stream normed and collapsed into one",
    )
    def attention_norm_output(self, value) -> Residual:
        return value

    @EProperty(
        "attn_hyper_connection.output",
        select=2,
        description="The weight per stream that spreads the mixer's output over the streams",
    )
    def attention_post(self, value) -> StreamWeights:
        return value

    attention_comb = unavailable(_UNMIXED)

    @EProperty("mlp_hyper_connection.input", description="Every residual stream after the mixer's add")
    def layer_mid(self, value) -> Streams:
        return _unflattened(self, value)

    @layer_mid.postprocess
    def layer_mid(self, value):
        return value.flatten(-2)

    @EProperty(
        "mlp_hyper_connection.output",
        select=0,
        description="The streams normed and collapsed into the one the MLP reads",
    )
    def mlp_collapsed(self, value) -> Residual:
        return value

    @EProperty(
        "mlp_hyper_connection.output",
        select=0,
        description="The normed stream entering the MLP: every stream normed and collapsed into one",
    )
    def mlp_norm_output(self, value) -> Residual:
        return value

    @EProperty(
        "mlp_hyper_connection.output",
        select=2,
        description="The weight per stream that spreads the MLP's output over the streams",
    )
    def mlp_post(self, value) -> StreamWeights:
        return value

    mlp_comb = unavailable(_UNMIXED)

    @EProperty("output", description="Every residual stream leaving the block")
    def layer_output(self, value) -> Streams:
        return _unflattened(self, value)

    @layer_output.postprocess
    def layer_output(self, value):
        return value.flatten(-2)


def collapse_streams(model, hidden):
    """One stream from every stream (`Streams` or flattened), as the model's last gated-residual module does."""
    if hidden.dim() == 4:
        hidden = hidden.flatten(-2)
    if hidden.shape[-1] != model.hidden_size:
        return model.norm(hidden)
    return hidden


#: No final norm follows: `hyper_connection_mixer` norms the streams before it averages them.
project_on_vocab = LogitLens(streams=collapse_streams, norm=False)


ENVOYS = {
    Qwen4ExpTextDecoderLayer: Layer,
    Qwen4ExpTextAttention: Attention,
    Qwen4ExpTextGatedDeltaNet: LinearAttention,
    Qwen4ExpTextMLP: Mlp,
    Qwen4ExpTextSparseMoeBlock: qwen2_moe.Moe,
}

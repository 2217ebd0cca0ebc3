"""Granite SWA (`GraniteSWAForCausalLM`): Granite's scaled block with sliding windows and attention sinks.

`h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * mlp(post_attention_layernorm(h))`.

As on Granite, `attention_output` and `mlp_output` are the scaled products the block
adds (a write is divided by `residual_multiplier` before the block scales it again),
the scores are scaled by `attention_multiplier`, the embedding output is multiplied by
`embedding_multiplier` before the first block, and `project_on_vocab` divides by
`logits_scaling` as the model does; the block, the MLP and the head are Granite's family's. `config.layer_types` says which blocks attend
within `sliding_window`. Each head has a learned sink: the eager attention forms the
softmax over the keys (`attention_probabilities`, rows summing to one), mixes the
values with it, then scales each query's mix by `sigmoid(logsumexp(scores) - sink)`,
the mass the sink would have taken; `attention_head_outputs` are read after that
scale.
"""

from transformers.models.granite_swa.modeling_granite_swa import (
    GraniteSWAAttention,
    GraniteSWADecoderLayer,
    GraniteSWAMLP,
)

from nnterp.components import (
    INTERFACE,
    EProperty,
    Layer,
    LogitLens,
    Pattern,
    ScaledAttention,
    ScaledMlp,
    interface_reason,
)

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}

#: Granite's head: the logits divided by `logits_scaling`.
project_on_vocab = LogitLens(divide="logits_scaling")


class Attention(ScaledAttention):
    """Granite SWA's attention; its own eager function (`F.softmax`, then the sink scale) behind the shared interface."""

    @EProperty(
        f"source.{INTERFACE}.source.F_softmax_0.input",
        description="The attention scores entering the softmax, masked",
        unavailable=interface_reason,
    )
    def attention_scores(self, value) -> Pattern:
        return value

    @EProperty(
        f"source.{INTERFACE}.source.F_dropout_0.output",
        description="The softmax over the keys the values are mixed with, before the sink scales each query's mix",
        unavailable=interface_reason,
    )
    def attention_probabilities(self, value) -> Pattern:
        return value


ENVOYS = {GraniteSWADecoderLayer: Layer, GraniteSWAAttention: Attention, GraniteSWAMLP: ScaledMlp}

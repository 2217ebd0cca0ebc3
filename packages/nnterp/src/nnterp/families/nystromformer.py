"""Nyströmformer (`NystromformerForMaskedLM`, model type `nystromformer`): BERT's post-LN encoder, Nyström attention.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`) laid out as BERT is (`nnterp.components.bert_block`, the blocks
regrouped at load): it loads under `NystromformerForMaskedLM` by default, or bare
(`NystromformerModel`, `task="feature-extraction"`), with the same names; the block
is post-LN, with no norm before the attention and no final norm, and the head (`cls`,
aliased `lm_head`) is BERT's, so the logit lens is `lm_head` alone on a stream.

The attention does its own arithmetic. The queries and keys are each divided by the
fourth root of the head width, and are served after that division. Where the config
has as many landmarks as its segment length (`num_landmarks ==
segment_means_seq_len`) the forward runs the exact softmax over every key, and the
scores (`q·k` plus the additive padding mask) and the pattern are served. Otherwise it
approximates the softmax through landmark means (and then takes inputs exactly
`segment_means_seq_len` long): the output mixes three small softmaxes through an
iterated pseudo-inverse, and no `[query, key]` pattern is formed, so
`attention_scores` and `attention_probabilities` are unavailable. Where the config has
a `conv_kernel_size`, a depthwise convolution over each head's values is added to the
heads' outputs; `attention_head_outputs` are the heads' outputs after that add.
"""

from __future__ import annotations

from typing import Any

from transformers.models.nystromformer.modeling_nystromformer import (
    NystromformerAttention,
    NystromformerEncoder,
    NystromformerLayer,
    NystromformerModel,
)

from nnterp.components import (
    MERGED_HEADS,
    NO_FINAL_NORM,
    EProperty,
    OwnAttention,
    PostLNLayer,
    Residual,
    lm_head_only,
    own_value,
    unavailable,
)
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertMlp, BertStack, FeedForward

ENCODER = True

RENAME = {
    "nystromformer.embeddings.word_embeddings": "embed_tokens",
    "nystromformer.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "cls": "lm_head",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only


def _approximated(attention: Any) -> str | None:
    inner = attention._module.self
    if inner.num_landmarks == inner.seq_len:
        return None
    return (
        f"the Nyström approximation (num_landmarks={inner.num_landmarks} of segment_means_seq_len={inner.seq_len}) "
        "mixes the values through landmark softmaxes and a pseudo-inverse, and forms no [query, key] pattern"
    )


class Layer(PostLNLayer):
    """A Nyströmformer block: post-LN, returning `(hidden_states,)`."""

    returns_tuple = True


class Attention(OwnAttention):
    """Nyströmformer's attention: the inner `self` runs the heads, `self_output` projects, adds and norms."""

    @property
    def num_heads(self) -> int:
        return self._module.self.num_attention_heads

    @property
    def head_dim(self) -> int:
        return self._module.self.attention_head_size

    attention_queries = own_value(
        "attention_queries",
        "self.source.query_layer_1.output",
        description="The queries entering attention, divided by the fourth root of the head width",
    )
    attention_keys = own_value(
        "attention_keys",
        "self.source.key_layer_1.output",
        description="The keys entering attention, divided by the fourth root of the head width",
    )
    attention_values = own_value("attention_values", "self.source.transpose_2.output")
    attention_scores = own_value(
        "attention_scores",
        "self.source.nn_functional_softmax_0.input",
        description="The attention scores entering the softmax, with the additive padding mask",
        unavailable=_approximated,
    )
    attention_probabilities = own_value(
        "attention_probabilities", "self.source.nn_functional_softmax_0.output", unavailable=_approximated
    )
    attention_head_outputs = own_value(
        "attention_head_outputs",
        "self.source.context_layer_permute_0.output",
        description="The per-head outputs before the output projection, the values' convolution added where it runs",
    )
    attention_premix = own_value("attention_premix", "o_proj.input", MERGED_HEADS)

    @EProperty(
        "self_output.dropout.output",
        description="What the attention adds to the residual stream, the term its own add takes",
    )
    def attention_output(self, value) -> Residual:
        return value


ENVOYS = {
    NystromformerModel: BertStack,
    NystromformerEncoder: BertStack,
    NystromformerLayer: Layer,
    NystromformerAttention: Attention,
    FeedForward: BertMlp,
}

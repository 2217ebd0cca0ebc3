"""YOSO (`YosoForMaskedLM`, model type `yoso`): BERT's post-LN encoder, attention by hashing-collision expectation.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`) laid out as BERT is (`nnterp.components.bert_block`, the blocks
regrouped at load): it loads under `YosoForMaskedLM` by default, or bare (`YosoModel`,
`task="feature-extraction"`), with the same names; the block is post-LN, with no norm
before the attention and no final norm, and the head (`cls`, aliased `lm_head`) is
BERT's, so the logit lens is `lm_head` alone on a stream.

The attention is no softmax. Each head's queries and keys are L2-normalized, and a
query weighs a key by the probability that their random-hyperplane hashes collide,
`(1 - arccos(q·k) / π) ** hash_code_len`; the weighted sum of the values is
L2-normalized per head, and where the config has a `conv_window` a depthwise
convolution over each head's values is added. On the expectation path
(`use_expectation=True`, the default) that weight matrix is formed and used inside
one custom autograd function (`YosoCumulation`), which nnsight does not trace into,
and it is neither normalized nor a pattern over the keys; on the sampled path the
hashing runs in a CUDA kernel. So `attention_scores` and `attention_probabilities`
are unavailable. The queries and keys are served as the function takes them, after
the normalization, on the expectation path; the sampled path takes them
unnormalized, zero-padded to the GPU warp width, so there they are unavailable. The
values are served where they are split into heads, and `attention_head_outputs` are
the heads' outputs after the normalization and the convolution's add.

transformers' attention turns the 0/1 padding mask it is given into `int(1 + mask /
10000)`, which is 1 at every position, so it weighs padded keys as well: a padded
row of a batch is not the prompt run alone.
"""

from __future__ import annotations

from typing import Any

from transformers.models.yoso.modeling_yoso import YosoAttention, YosoEncoder, YosoLayer, YosoModel

from nnterp.components import (
    FOLDED_HEADS,
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
    "yoso.embeddings.word_embeddings": "embed_tokens",
    "yoso.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "cls": "lm_head",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

_NO_PATTERN = (
    "YOSO weighs each key by an expected hash collision, (1 - arccos(q·k) / pi) ** hash_code_len, not by a softmax: "
    "the weights are formed and used inside one custom autograd function (or a CUDA kernel), and no [query, key] "
    "pattern is served"
)


def _sampled(attention: Any) -> str | None:
    if attention._module.self.use_expectation:
        return None
    return (
        "the sampled path (use_expectation=False) hashes the queries and keys unnormalized and zero-padded to the "
        "GPU warp width, inside a CUDA kernel; they are served on the expectation path"
    )


class Layer(PostLNLayer):
    """A YOSO block: post-LN, returning `(hidden_states,)`."""

    returns_tuple = True


class Attention(OwnAttention):
    """YOSO's attention: the inner `self` runs the heads, `self_output` projects, adds and norms."""

    @property
    def num_heads(self) -> int:
        return self._module.self.num_attention_heads

    @property
    def head_dim(self) -> int:
        return self._module.self.attention_head_size

    attention_queries = own_value(
        "attention_queries",
        "self.source.YosoCumulation_apply_0.inputs",
        FOLDED_HEADS,
        select=2,
        unavailable=_sampled,
        description="The queries entering attention, each head's L2-normalized",
    )
    attention_keys = own_value(
        "attention_keys",
        "self.source.YosoCumulation_apply_0.inputs",
        FOLDED_HEADS,
        select=3,
        unavailable=_sampled,
        description="The keys entering attention, each head's L2-normalized",
    )
    attention_values = own_value("attention_values", "self.source.transpose_2.output")
    attention_scores = unavailable(_NO_PATTERN)
    attention_probabilities = unavailable(_NO_PATTERN)
    attention_head_outputs = own_value(
        "attention_head_outputs",
        "self.source.context_layer_permute_0.output",
        description="The per-head outputs before the output projection, normalized, the values' convolution added",
    )
    attention_premix = own_value("attention_premix", "o_proj.input", MERGED_HEADS)

    @EProperty(
        "self_output.dropout.output",
        description="What the attention adds to the residual stream, the term its own add takes",
    )
    def attention_output(self, value) -> Residual:
        return value


ENVOYS = {
    YosoModel: BertStack,
    YosoEncoder: BertStack,
    YosoLayer: Layer,
    YosoAttention: Attention,
    FeedForward: BertMlp,
}

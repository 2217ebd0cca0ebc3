"""DeBERTa-v2 (`DebertaV2ForMaskedLM`, model type `deberta-v2`, DeBERTa-v3 too): a post-LN encoder, disentangled attention.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`), laid out and regrouped as DeBERTa is (`nnterp.families.deberta`,
`nnterp.components.deberta_block`): it loads under `DebertaV2ForMaskedLM` by default,
or bare (`DebertaV2Model`, `task="feature-extraction"`), with the same names; the
block is post-LN, with no norm before the attention and no final norm. Every position
attends to every other one; padding is masked.

The attention does its own arithmetic under every implementation, with the heads
folded into the batch axis, and the values are served unfolded. The queries, keys and
values are the three projections' outputs (`q_proj`, `k_proj`, `v_proj`, each with its
bias). The scores are the summed disentangled terms entering the softmax: the content
term `q·k`, plus, where the config has relative attention, the content-to-position
term (each query against the relative-position keys) and the position-to-content term
(each key against the relative-position queries), every term divided by
`sqrt(head_dim * (1 + number of position terms))`; the padding is filled with the
dtype's minimum. The relative distances are log-bucketed past `position_buckets`, and
the relative-position table (`deberta.encoder.rel_embeddings`, normed where
`norm_rel_ebd` says so) is one table for every block; where `share_att_key` is set the
position queries and keys come from the content projections, so an edit of a
projection's weights reaches both. An edit of the queries or keys reaches both the
content term and the position term that reads them.

A config with a convolution after block 0 (`conv_kernel_size > 0`, as DeBERTa-v2
xlarge) is refused at load: the convolution adds block 0's input, convolved, to block
0's output and norms the sum, so the stream block 1 reads is neither
`layers[0].layer_output` nor any other block value.

The head is DeBERTa's: `cls` (aliased `lm_head`, a transform and the projection onto
the vocabulary) on the released checkpoints (`legacy`), `lm_predictions` on the newer
one, and the logit lens runs it on a stream.
"""

from __future__ import annotations

from typing import Any

from transformers.models.deberta_v2 import modeling_deberta_v2 as deberta_v2

from nnterp.components import (
    FOLDED_HEADS,
    HEADS_FIRST,
    MERGED_HEADS,
    EProperty,
    OwnAttention,
    Residual,
    chain,
    own_value,
)
from nnterp.components.bert_block import BertMlp, FeedForward
from nnterp.components.deberta_block import DebertaLayer, DebertaStack, regroup_deberta_blocks
from nnterp.families import UnsupportedFamily
from nnterp.families.deberta import BLOCK_RENAME, ENCODER, final_norm_output, project_on_vocab

RENAME = {
    "deberta.embeddings.word_embeddings": "embed_tokens",
    "deberta.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "cls": "lm_head",
    "lm_predictions": "lm_head",
    **BLOCK_RENAME,
    "attention.self.query_proj": "attention.self.q_proj",
    "attention.self.key_proj": "attention.self.k_proj",
    "attention.self.value_proj": "attention.self.v_proj",
}


def _regroup(trunk: Any) -> None:
    """Refuse a stack with a convolution after block 0, then regroup every block as DeBERTa's."""
    encoder = trunk if "layer" in trunk._modules else trunk.encoder
    conv = getattr(encoder, "conv", None)
    if conv is not None:
        size = conv.conv.kernel_size[0]
        raise UnsupportedFamily(
            f"this DeBERTa-v2 runs a convolution after block 0 (conv_kernel_size={size}), which adds block 0's "
            "input, convolved, to its output and norms the sum: the stream block 1 reads is no standard value, "
            "so nnterp does not serve it. Load a checkpoint without it (conv_kernel_size=0, as every DeBERTa-v3), "
            "or this one with nnsight's LanguageModel under its native names."
        )
    regroup_deberta_blocks(trunk)


class Stack(DebertaStack):
    """DeBERTa's stack envoy, which refuses the convolution after block 0 before it regroups."""

    regroup = staticmethod(_regroup)


class Attention(OwnAttention):
    """DeBERTa-v2's attention: the inner `self` runs the disentangled arithmetic on folded heads, `self_output` adds."""

    @property
    def num_heads(self) -> int:
        return self._module.self.num_attention_heads

    @property
    def head_dim(self) -> int:
        return self._module.self.attention_head_size

    attention_queries = own_value(
        "attention_queries",
        "self.source.self_transpose_for_scores_0.output",
        FOLDED_HEADS,
        description="The queries entering attention, with their bias",
    )
    attention_keys = own_value(
        "attention_keys",
        "self.source.self_transpose_for_scores_1.output",
        FOLDED_HEADS,
        description="The keys entering attention, with their bias, before the division by the scale",
    )
    attention_values = own_value("attention_values", "self.source.self_transpose_for_scores_2.output", FOLDED_HEADS)
    attention_scores = own_value(
        "attention_scores",
        "self.source.nn_functional_softmax_0.input",
        description="The summed disentangled scores entering the softmax, masked with the dtype's minimum",
    )
    attention_probabilities = own_value("attention_probabilities", "self.dropout.output")
    attention_head_outputs = own_value(
        "attention_head_outputs", "self.source.torch_bmm_1.output", chain(FOLDED_HEADS, HEADS_FIRST)
    )
    attention_premix = own_value("attention_premix", "o_proj.input", MERGED_HEADS)

    @EProperty(
        "self_output.dropout.output",
        description="What the attention adds to the residual stream, the term its own add takes",
    )
    def attention_output(self, value) -> Residual:
        return value


ENVOYS = {
    deberta_v2.DebertaV2Model: Stack,
    deberta_v2.DebertaV2Encoder: Stack,
    deberta_v2.DebertaV2Layer: DebertaLayer,
    deberta_v2.DebertaV2Attention: Attention,
    FeedForward: BertMlp,
}

__all__ = ["ENCODER", "ENVOYS", "RENAME", "final_norm_output", "project_on_vocab"]

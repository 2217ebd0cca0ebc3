"""DeBERTa (`DebertaForMaskedLM`, model type `deberta`): a bidirectional post-LN encoder with disentangled attention.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `DebertaForMaskedLM` by default, or bare
(`DebertaModel`, `task="feature-extraction"`) for probing, and the same names serve
both (the trunk sits under `deberta` in the first and is the root in the second).
Every position attends to every other one; padding is masked.

The blocks are regrouped as BERT's are (`nnterp.components.deberta_block`): `self_attn`
is the attention and `mlp` the feed-forward container; the block is post-LN, with no
norm before the attention and no final norm. `token_embeddings` is the token table's
output (`embed_tokens`); block 0 reads the embedding's normed sum (the token table,
plus the position and segment tables where the config has them), zeroed at padding.

The attention does its own arithmetic under every implementation. Its scores are the
sum of the disentangled terms entering the softmax: the content term `q·k`, plus,
where the config has relative attention, the content-to-position term (each query
against the relative-position keys) and the position-to-content term (each key
against the relative-position queries), every term divided by
`sqrt(head_dim * (1 + len(pos_att_type)))`; the padding is filled with the dtype's
minimum. `attention_queries` are the queries with their bias, before that division,
`attention_keys` the keys (DeBERTa's in-projection has no key bias), and
`attention_values` the values with their bias. An edit of the queries or keys reaches
both the content term and the position term that reads them. The relative-position
table (`deberta.encoder.rel_embeddings`) is one table for every block. A config with
`talking_head` mixes the heads' scores before the softmax and their patterns after
it: the scores and the pattern are then unavailable, as no single tensor is both the
softmax's input per head and what the values are mixed with.

The head of the released checkpoints (`legacy`, the default: `cls`, aliased
`lm_head`) is BERT's: a transform (a dense layer, the activation, a LayerNorm) and
the projection onto the vocabulary, so the logit lens is `lm_head` alone on a
stream, and the last `layer_output` through it is the logits. The newer head
(`legacy=False`, `lm_predictions`) reads the token table's weights as an argument;
its logit lens runs the same steps on it.
"""

from __future__ import annotations

from typing import Any

import torch
from transformers.models.deberta import modeling_deberta as deberta

from nnterp.components import (
    HEADS_FIRST,
    MERGED_HEADS,
    NO_FINAL_NORM,
    EProperty,
    OwnAttention,
    Residual,
    own_value,
    unavailable,
)
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertMlp, FeedForward
from nnterp.components.deberta_block import DebertaLayer, DebertaStack

ENCODER = True

#: The block's names: BERT's, less the inner attention's three projections, which DeBERTa fuses into `in_proj`.
BLOCK_RENAME = {key: alias for key, alias in BERT_BLOCK_RENAME.items() if not key.startswith("attention.self.")}

RENAME = {
    "deberta.embeddings.word_embeddings": "embed_tokens",
    "deberta.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "cls": "lm_head",
    "lm_predictions": "lm_head",
    **BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)

_TALKING_HEADS = (
    "a talking-heads attention (`talking_head`): the heads' scores are mixed before the softmax and their "
    "patterns after it, so no one tensor per head is both"
)


def project_on_vocab(model: Any, hidden: Any) -> Any:
    """The logit lens: the masked-LM head on `hidden`, as the model runs it on the last `layer_output`.

    The legacy head (`cls`) takes the stream alone. The newer one (`lm_predictions`)
    transforms it and multiplies by the token table, then adds its own bias.
    """
    head = model.lm_head
    if not model.interleaver.interleaving:
        hidden = hidden.to(next(head._module.parameters()).device)
    if "predictions" in head._module._modules:
        return head(hidden)
    inner = head.lm_head
    hidden = inner.LayerNorm(inner.transform_act_fn(inner.dense(hidden)))
    return torch.matmul(hidden, model.embed_tokens.weight.t()) + inner.bias


def _talking(attention: Any) -> str | None:
    return _TALKING_HEADS if attention._module.self.head_logits_proj is not None else None


class Attention(OwnAttention):
    """DeBERTa's attention: the inner `self` runs the disentangled arithmetic, `self_output` projects, adds and norms."""

    @property
    def num_heads(self) -> int:
        return self._module.self.num_attention_heads

    @property
    def head_dim(self) -> int:
        return self._module.self.attention_head_size

    attention_queries = own_value(
        "attention_queries",
        "self.source.query_layer_0.output",
        description="The queries entering attention, with their bias, before the division by the scale",
    )
    attention_keys = own_value("attention_keys", "self.source.chunk_0.output", select=1)
    attention_values = own_value(
        "attention_values",
        "self.source.value_layer_0.output",
        description="The values entering attention, with their bias",
    )
    attention_scores = own_value(
        "attention_scores",
        "self.source.nn_functional_softmax_0.input",
        description="The summed disentangled scores entering the softmax, masked with the dtype's minimum",
        unavailable=_talking,
    )
    attention_probabilities = own_value("attention_probabilities", "self.dropout.output", unavailable=_talking)
    attention_head_outputs = own_value("attention_head_outputs", "self.source.torch_matmul_4.output", HEADS_FIRST)
    attention_premix = own_value("attention_premix", "o_proj.input", MERGED_HEADS)

    @EProperty(
        "self_output.dropout.output",
        description="What the attention adds to the residual stream, the term its own add takes",
    )
    def attention_output(self, value) -> Residual:
        return value


ENVOYS = {
    deberta.DebertaModel: DebertaStack,
    deberta.DebertaEncoder: DebertaStack,
    deberta.DebertaLayer: DebertaLayer,
    deberta.DebertaAttention: Attention,
    FeedForward: BertMlp,
}

__all__ = ["BLOCK_RENAME", "ENCODER", "final_norm_output", "project_on_vocab"]

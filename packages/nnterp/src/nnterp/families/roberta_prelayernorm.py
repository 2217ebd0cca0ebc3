"""RoBERTa-PreLayerNorm (`RobertaPreLayerNormForMaskedLM`, model type `roberta-prelayernorm`): a pre-LN RoBERTa.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

An encoder (`ENCODER`): it loads under `RobertaPreLayerNormForMaskedLM` by default,
or bare (`RobertaPreLayerNormModel`, `task="feature-extraction"`) for probing, with
the same names (the trunk sits under `roberta_prelayernorm` in the first and is the
root in the second). Every position attends to every other one; padding is masked.

The blocks are BERT's with a norm before each sublayer
(`nnterp.components.bert_pre_ln`): the attention's norm (`attention.LayerNorm`)
moves to the block as `input_layernorm`, the norm `intermediate` ran first
(`intermediate.LayerNorm`) moves to the block as `post_attention_layernorm`, and
the attention's two halves and the feed-forward path are regrouped under
`self_attn` and `mlp`. The trunk norms the encoder's output (its own `LayerNorm`,
aliased `norm`, which the bare load's root holds too, beside the embedding's
`LayerNorm`, so `embeddings.norm` names the embedding's norm there), so
`layer_input + attention_output + mlp_output == layer_output` holds on every block
and the model has a final norm. The embedding module sums the token, segment and
position tables (RoBERTa's positions, counted from the padding id) and norms the
sum: block 0 reads the normed sum, and `token_embeddings` is the token table's
output (`embed_tokens`).

The attention's inner `self` calls the shared attention interface, where its
interior is read under `attn_implementation="eager"`. The head (`lm_head`) is a
dense layer, GELU, a LayerNorm and the projection onto the vocabulary, so the logit
lens is the final norm, then `lm_head`, and the last `layer_output` through it is
the logits.
"""

from transformers.models.roberta_prelayernorm.modeling_roberta_prelayernorm import (
    RobertaPreLayerNormEncoder,
    RobertaPreLayerNormLayer,
    RobertaPreLayerNormModel,
)

from nnterp.components import Layer
from nnterp.components.bert_block import BertAttention, BertMlp
from nnterp.components.bert_pre_ln import (
    PRE_LN_BLOCK_RENAME,
    PreLNAttention,
    PreLNFeedForward,
    PreLNStack,
    pre_ln_regroup,
)
from nnterp.components.layer import returns_tuple_by_annotation

ENCODER = True

RENAME = {
    "roberta_prelayernorm.embeddings.word_embeddings": "embed_tokens",
    "roberta_prelayernorm.encoder.layer": "layers",
    "roberta_prelayernorm.LayerNorm": "norm",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "LayerNorm": "norm",
    **PRE_LN_BLOCK_RENAME,
}


class Stack(PreLNStack):
    """The trunk's and the encoder stack's envoy: the norms are `attention.LayerNorm` and `intermediate.LayerNorm`."""

    regroup = staticmethod(pre_ln_regroup("LayerNorm", "intermediate.LayerNorm"))


class Layer(Layer):
    """RoBERTa-PreLayerNorm's regrouped pre-LN block."""

    returns_tuple = returns_tuple_by_annotation(RobertaPreLayerNormLayer)


ENVOYS = {
    RobertaPreLayerNormModel: Stack,
    RobertaPreLayerNormEncoder: Stack,
    RobertaPreLayerNormLayer: Layer,
    PreLNAttention: BertAttention,
    PreLNFeedForward: BertMlp,
}

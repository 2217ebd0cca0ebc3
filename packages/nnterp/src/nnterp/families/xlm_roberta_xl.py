"""XLM-RoBERTa-XL (`XLMRobertaXLForMaskedLM`, model type `xlm-roberta-xl`): a bidirectional pre-LN encoder.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

An encoder (`ENCODER`): it loads under `XLMRobertaXLForMaskedLM` by default, or bare
(`XLMRobertaXLModel`, `task="feature-extraction"`) for probing, with the same names
(the trunk sits under `roberta` in the first and is the root in the second). Every
position attends to every other one; padding is masked.

The blocks are BERT's with a norm before each sublayer
(`nnterp.components.bert_pre_ln`): the attention's norm
(`attention.self_attn_layer_norm`) moves to the block as `input_layernorm`, the
block's own `LayerNorm` (which `feed_forward_chunk` calls first) is
`post_attention_layernorm`, and the attention's two halves and the feed-forward path
are regrouped under `self_attn` and `mlp`. The feed-forward path's output module
has no dropout, so `mlp_output` is the down projection's output, the term its add
takes. The stack norms the last block's output (`encoder.LayerNorm`, aliased
`norm`), so `layer_input + attention_output + mlp_output == layer_output` holds on
every block and the model has a final norm. The embedding module sums the token,
segment and position tables (RoBERTa's positions, counted from the padding id) with
no norm: block 0 reads the sum, and `token_embeddings` is the token table's output
(`embed_tokens`).

The attention's inner `self` calls the shared attention interface, where its
interior is read under `attn_implementation="eager"`. The head (`lm_head`) is a
dense layer, GELU, a LayerNorm and the projection onto the vocabulary, so the logit
lens is the final norm, then `lm_head`, and the last `layer_output` through it is
the logits.
"""

from transformers.models.xlm_roberta_xl.modeling_xlm_roberta_xl import (
    XLMRobertaXLEncoder,
    XLMRobertaXLLayer,
    XLMRobertaXLModel,
)

from nnterp.components import EProperty, Layer, Residual
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
    "roberta.embeddings.word_embeddings": "embed_tokens",
    "roberta.encoder.layer": "layers",
    "roberta.encoder.LayerNorm": "norm",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "encoder.LayerNorm": "norm",
    **PRE_LN_BLOCK_RENAME,
}


class Stack(PreLNStack):
    """The trunk's and the encoder stack's envoy: the norms are `attention.self_attn_layer_norm` and `LayerNorm`."""

    regroup = staticmethod(pre_ln_regroup("self_attn_layer_norm", "LayerNorm"))


class Layer(Layer):
    """XLM-RoBERTa-XL's regrouped pre-LN block."""

    returns_tuple = returns_tuple_by_annotation(XLMRobertaXLLayer)


class Mlp(BertMlp):
    """XLM-RoBERTa-XL's feed-forward path, whose output module adds the down projection's output with no dropout."""

    @EProperty(
        "ffn_output.dense.output",
        description="What the MLP adds to the residual stream, the term its own add takes",
    )
    def mlp_output(self, value) -> Residual:
        return value


ENVOYS = {
    XLMRobertaXLModel: Stack,
    XLMRobertaXLEncoder: Stack,
    XLMRobertaXLLayer: Layer,
    PreLNAttention: BertAttention,
    PreLNFeedForward: Mlp,
}

"""Megatron-BERT (`MegatronBertForMaskedLM`, model type `megatron-bert`): a bidirectional pre-LN encoder.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

An encoder (`ENCODER`): it loads under `MegatronBertForMaskedLM` by default, or bare
(`MegatronBertModel`, `task="feature-extraction"`) for probing, with the same names
(the trunk sits under `bert` in the first and is the root in the second). Every
position attends to every other one; padding is masked.

The blocks are BERT's with a norm before each sublayer
(`nnterp.components.bert_pre_ln`): the attention's norm (`attention.ln`) moves to
the block as `input_layernorm`, the block's own `ln` (which `feed_forward_chunk`
calls first) is `post_attention_layernorm`, and the attention's two halves and the
feed-forward path are regrouped under `self_attn` and `mlp`. The stack norms the
last block's output (`encoder.ln`, aliased `norm`), so `layer_input +
attention_output + mlp_output == layer_output` holds on every block, and the
model has a final norm. The embedding module sums the token, segment and position
tables with no norm: block 0 reads the sum, and `token_embeddings` is the token
table's output (`embed_tokens`).

The attention's inner `self` does BERT's original arithmetic in its own forward
(`BertOwnAttention`): the interior is read at its products, its softmax and its
dropout under every attention implementation. The head (`cls`, aliased `lm_head`)
is a transform (a dense layer, the activation, a LayerNorm) and the projection onto
the vocabulary, so the logit lens is the final norm, then `lm_head`, and the last
`layer_output` through it is the logits.
"""

from transformers.models.megatron_bert.modeling_megatron_bert import (
    MegatronBertEncoder,
    MegatronBertLayer,
    MegatronBertModel,
)

from nnterp.components import Layer
from nnterp.components.bert_block import BertMlp, BertOwnAttention
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
    "bert.embeddings.word_embeddings": "embed_tokens",
    "bert.encoder.layer": "layers",
    "bert.encoder.ln": "norm",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "encoder.ln": "norm",
    "cls": "lm_head",
    **PRE_LN_BLOCK_RENAME,
}


class Stack(PreLNStack):
    """`MegatronBertModel`'s and `MegatronBertEncoder`'s envoy: the norms are `attention.ln` and the block's `ln`."""

    regroup = staticmethod(pre_ln_regroup("ln", "ln"))


class Layer(Layer):
    """Megatron-BERT's regrouped pre-LN block."""

    returns_tuple = returns_tuple_by_annotation(MegatronBertLayer)


ENVOYS = {
    MegatronBertModel: Stack,
    MegatronBertEncoder: Stack,
    MegatronBertLayer: Layer,
    PreLNAttention: BertOwnAttention,
    PreLNFeedForward: BertMlp,
}

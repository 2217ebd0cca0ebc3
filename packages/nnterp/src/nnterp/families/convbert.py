"""ConvBERT (`ConvBertForMaskedLM`, model type `convbert`): BERT's post-LN blocks with mixed attention heads.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `ConvBertForMaskedLM` by default, or bare
(`ConvBertModel`, `task="feature-extraction"`) for probing, and the same names serve
both (the trunk sits under `convbert` in the first and is the root in the second).
Every position attends to every other one; padding is masked.

The blocks are BERT's in layout (`nnterp.components.bert_block`: the attention's
output module and the feed-forward path are regrouped at load, `self_attn` is the
attention and `mlp` the feed-forward container), post-LN, with no norm before the
attention and no final norm. The attention mixes two kinds of head. Its
`num_attention_heads // head_ratio` softmax heads (`num_heads`) are served as any
attention's, read at the operations of the inner `self` module's own forward (it
never calls the shared attention interface): the queries, keys and values before
the product, the scores divided by the head width's square root and masked, the
pattern, and the heads' outputs. As many span-based dynamic convolution heads run
beside them: a softmax over `conv_kernel_size` taps, per token and head, weighs a
window of a projection of the input, with no pattern over the sequence. The output
projection (`o_proj`) takes the softmax heads' outputs and the convolution heads'
outputs side by side, so `attention_premix` (which would read one vector per softmax
head) is unavailable; `attention_output` is the projection's term entering the add,
both kinds of head together.

The embedding module sums the token, segment and position tables and norms the sum
at `embedding_size`; where that is narrower than the stream (the small
checkpoints), `embeddings_project` projects it before block 0, and
`token_embeddings` is unavailable. The head is two modules on the root with no
container: `generator_predictions` (a dense layer to `embedding_size`, the
activation, a LayerNorm), aliased `lm_head` as the module that reads the last
block's output, then `generator_lm_head`, the projection onto the vocabulary, where
`lm_head_output` is read. The logit lens runs both in that order, so the last
`layer_output` through it is the logits.
"""

from __future__ import annotations

from typing import Any

from transformers.models.convbert.modeling_convbert import (
    ConvBertAttention,
    ConvBertEncoder,
    ConvBertLayer,
    ConvBertModel,
)

from nnterp.components import (
    HEADS_FIRST,
    NO_FINAL_NORM,
    EProperty,
    LogitLens,
    PostLNLayer,
    own_value,
    unavailable,
)
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertMlp, BertStack, FeedForward
from nnterp.components.bert_block import BertAttention as BertBlockAttention

ENCODER = True

RENAME = {
    "convbert.embeddings.word_embeddings": "embed_tokens",
    "convbert.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "generator_predictions": "lm_head",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
#: The prediction head (`lm_head`, the transform) then the vocabulary projection; no final norm comes before them.
project_on_vocab = LogitLens(norm=False, head=("lm_head", "generator_lm_head"))
#: The vocabulary projection after the prediction head.
lm_head_output = EProperty("generator_lm_head.output")


def num_heads(model) -> int:
    """The softmax heads of a block, `num_attention_heads // head_ratio`; as many convolution heads run beside them."""
    return model.layers[0].self_attn.num_heads


def num_kv_heads(model) -> int:
    """The softmax heads' key/value heads: as many as the query heads."""
    return model.layers[0].self_attn.num_kv_heads


def head_dim(model) -> int:
    """The width of one softmax head, the module's own: half of `hidden_size // num_heads`."""
    return model.layers[0].self_attn.head_dim


def qk_head_dim(model) -> int:
    """The width of one softmax head's queries and keys, its value width."""
    return model.layers[0].self_attn.head_dim


def _narrow_embeddings(model: Any) -> str | None:
    """Why `token_embeddings` is missing: the token table is narrower than the stream."""
    config = model.config
    if config.embedding_size == config.hidden_size:
        return None
    return (
        f"the token table is embedding_size={config.embedding_size} wide, not hidden_size={config.hidden_size}, "
        "and the stream starts at embeddings_project's projection of the normed sum of three tables; read "
        "embed_tokens.output for the table's output, layers[0].layer_input for the stream"
    )


#: The token table's output, where it is as wide as the stream.
token_embeddings = EProperty(
    "embed_tokens.output", description="The embedding module's output", unavailable=_narrow_embeddings
)

#: Why the output projection's input is not one vector per softmax head.
_MIXED_PREMIX = (
    "ConvBERT's output projection takes the softmax heads' outputs and the span-based convolution heads' outputs "
    "side by side, twice num_heads vectors: read attention_head_outputs for the softmax heads"
)


def _inner(name: str, location: str, *args: Any, **kwargs: Any) -> EProperty:
    """The base attention's value `name`, read at an operation of the inner `self` module's own forward."""
    return own_value(name, f"self.source.{location}", *args, **kwargs)


class Attention(BertBlockAttention):
    """ConvBERT's attention: softmax heads in its own arithmetic beside span-based convolution heads."""

    def off_interface(self) -> str | None:
        return None

    attention_queries = _inner(
        "attention_queries",
        "transpose_0.output",
        description="The queries entering attention, before the division by the head width's square root",
    )
    attention_keys = _inner("attention_keys", "transpose_1.output")
    attention_values = _inner("attention_values", "transpose_2.output")
    attention_scores = _inner(
        "attention_scores",
        "nn_functional_softmax_0.input",
        description="The attention scores entering the softmax, divided by the head width's square root, masked",
    )
    attention_probabilities = _inner("attention_probabilities", "self_dropout_0.output")
    attention_head_outputs = _inner("attention_head_outputs", "torch_matmul_2.output", HEADS_FIRST)
    attention_premix = unavailable(_MIXED_PREMIX)


ENVOYS = {
    ConvBertModel: BertStack,
    ConvBertEncoder: BertStack,
    ConvBertLayer: PostLNLayer,
    ConvBertAttention: Attention,
    FeedForward: BertMlp,
}

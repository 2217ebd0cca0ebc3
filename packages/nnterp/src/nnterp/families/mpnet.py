"""MPNet (`MPNetForMaskedLM`, model type `mpnet`): a bidirectional post-LN encoder with a shared relative-position bias.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `MPNetForMaskedLM` by default, or bare
(`MPNetModel`, `task="feature-extraction"`) for probing, and the same names serve
both (the trunk sits under `mpnet` in the first and is the root in the second).
Every position attends to every other one; padding is masked.

The block is BERT's, but its attention module (`attention`, aliased `self_attn`)
holds the heads and their output projection together (`attention.attn`, with `o`
aliased `self_attn.o_proj`), then the dropout whose output is `attention_output`, and
the norm after the add (`attention.LayerNorm`, aliased `post_attention_layernorm`).
The feed-forward path is regrouped as DeBERTa's is
(`nnterp.components.deberta_block`): `mlp` holds `intermediate` and `output` and the
block calls it, so the block is post-LN with no norm before the attention and no
final norm. Block 0 reads the embedding's normed sum of the token and position
tables; MPNet numbers the positions past its own padding id, 1, whatever the
tokenizer's padding is.

The attention does its own arithmetic under every implementation. The encoder
computes one relative-position bias, `[batch, heads, query, key]`, from its
`relative_attention_bias` table, once per forward, and hands the same tensor to every
block; a block adds it to its scaled scores. `attention_scores` are the scores
entering the softmax: `q·k / sqrt(head_dim)`, plus that bias, plus the additive
padding mask. The bias itself is the attention's `position_bias` input, which an edit
reaches on one block only if it replaces the argument rather than changing the shared
tensor in place.

The head (`lm_head`) is a dense layer, the activation, a LayerNorm and the projection
onto the vocabulary (`lm_head.decoder`), so the logit lens is `lm_head` alone on a
stream, and the last `layer_output` through it is the logits.
"""

from __future__ import annotations

from transformers.models.mpnet.modeling_mpnet import MPNetAttention, MPNetEncoder, MPNetLayer, MPNetModel

from nnterp.components import (
    HEADS_FIRST,
    KEYS_TRANSPOSED,
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
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertMlp, FeedForward
from nnterp.components.deberta_block import DebertaStack

ENCODER = True

RENAME = {
    "mpnet.embeddings.word_embeddings": "embed_tokens",
    "mpnet.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "attention": "self_attn",
    "attention.LayerNorm": "post_attention_layernorm",
    "attention.attn.o": "attention.o_proj",
    "attention.attn.q": "attention.attn.q_proj",
    "attention.attn.k": "attention.attn.k_proj",
    "attention.attn.v": "attention.attn.v_proj",
    **{key: alias for key, alias in BERT_BLOCK_RENAME.items() if key.startswith("mlp.")},
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only


class Layer(PostLNLayer):
    """An MPNet block: post-LN, returning `(hidden_states,)`."""

    returns_tuple = True


class Attention(OwnAttention):
    """MPNet's attention: `attn` runs the heads and the output projection, then the dropout, the add and the norm."""

    @property
    def num_heads(self) -> int:
        return self._module.attn.num_attention_heads

    @property
    def head_dim(self) -> int:
        return self._module.attn.attention_head_size

    attention_queries = own_value(
        "attention_queries",
        "attn.source.torch_matmul_0.inputs",
        select=0,
        description="The queries entering attention, before the division by the head width's square root",
    )
    attention_keys = own_value("attention_keys", "attn.source.torch_matmul_0.inputs", KEYS_TRANSPOSED, select=1)
    attention_values = own_value("attention_values", "attn.source.torch_matmul_1.inputs", select=1)
    attention_scores = own_value(
        "attention_scores",
        "attn.source.nn_functional_softmax_0.input",
        description=(
            "The attention scores entering the softmax: divided by the head width's square root, plus the shared "
            "relative-position bias and the additive mask"
        ),
    )
    attention_probabilities = own_value("attention_probabilities", "attn.dropout.output")
    attention_head_outputs = own_value("attention_head_outputs", "attn.source.torch_matmul_1.output", HEADS_FIRST)
    attention_premix = own_value("attention_premix", "o_proj.input", MERGED_HEADS)

    @EProperty("dropout.output", description="What the attention adds to the residual stream, the term its add takes")
    def attention_output(self, value) -> Residual:
        return value


ENVOYS = {
    MPNetModel: DebertaStack,
    MPNetEncoder: DebertaStack,
    MPNetLayer: Layer,
    MPNetAttention: Attention,
    FeedForward: BertMlp,
}

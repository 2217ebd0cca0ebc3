"""RoFormer (`RoFormerForMaskedLM`, model type `roformer`): BERT's post-LN encoder with rotary positions in its heads.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `RoFormerForMaskedLM` by default, or bare
(`RoFormerModel`, `task="feature-extraction"`), and the same names serve both (the
trunk sits under `roformer` in the first and is the root in the second). A checkpoint
saved as `RoFormerForCausalLM` loads the same way. Every position attends to every
other one; padding is masked.

The blocks are BERT's (`nnterp.components.bert_block`), regrouped at load: `self_attn`
is the attention, `mlp` the feed-forward container, and the block is post-LN, with no
norm before the attention and no final norm; a block returns `(hidden_states,)`. The
embedding module sums the token and segment tables and norms the sum, with no
position table: `token_embeddings` is the token table's output (`embed_tokens`).
Where `embedding_size` differs from `hidden_size` (the small released checkpoints)
the trunk projects the normed sum onto the stream (`roformer.embeddings_project`)
before block 0; the token table is then narrower than the stream, so
`token_embeddings` is unavailable there, and the stream starts at
`layers[0].layer_input`.

The attention does its own arithmetic under every implementation, inside its inner
`self` module. The encoder computes one sinusoidal table per forward and hands it to
every block, which rotates its queries and keys with it (its values too where
`rotary_value` is set) before the product: `attention_queries`, `attention_keys` and
`attention_values` are the rotated tensors the products read, and
`attention_scores` are `q·k / sqrt(head_dim)` plus the additive padding mask, as the
softmax takes them.

The head (`cls`, aliased `lm_head`) is a transform (a dense layer down to
`embedding_size`, the activation, a LayerNorm) and the projection onto the vocabulary,
so the logit lens is `lm_head` alone on a stream, and the last `layer_output` through
it is the logits.
"""

from typing import Any

from transformers.models.roformer.modeling_roformer import (
    RoFormerAttention,
    RoFormerEncoder,
    RoFormerLayer,
    RoFormerModel,
)

from nnterp.components import (
    HEADS_FIRST,
    KEYS_TRANSPOSED,
    NO_FINAL_NORM,
    EProperty,
    OwnAttention,
    PostLNLayer,
    lm_head_only,
    own_value,
    unavailable,
)
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertAttention, BertMlp, BertStack, FeedForward

ENCODER = True

RENAME = {
    "roformer.embeddings.word_embeddings": "embed_tokens",
    "roformer.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "cls": "lm_head",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only


def _narrow_embeddings(model: Any) -> str | None:
    """Why `token_embeddings` is unavailable: a token table narrower than the stream; `None` where it is as wide."""
    config = model._module.config
    if config.embedding_size == config.hidden_size:
        return None
    return (
        f"the token table is embedding_size={config.embedding_size} wide, narrower than the stream "
        f"(hidden_size={config.hidden_size}): block 0 reads roformer.embeddings_project's projection of the normed "
        "embedding sum, layers[0].layer_input"
    )


token_embeddings = EProperty("embed_tokens.output", unavailable=_narrow_embeddings)


class Layer(PostLNLayer):
    """A RoFormer block: BERT's post-LN block, returning `(hidden_states,)`."""

    returns_tuple = True


class Attention(OwnAttention, BertAttention):
    """RoFormer's attention: the inner `self` rotates and mixes the heads itself, `self_output` projects."""

    attention_queries = own_value(
        "attention_queries",
        "self.source.torch_matmul_0.inputs",
        select=0,
        description="The queries entering attention, rotated by their positions, before the division by sqrt(head_dim)",
    )
    attention_keys = own_value(
        "attention_keys",
        "self.source.torch_matmul_0.inputs",
        KEYS_TRANSPOSED,
        select=1,
        description="The keys entering attention, rotated by their positions",
    )
    attention_values = own_value(
        "attention_values",
        "self.source.torch_matmul_1.inputs",
        select=1,
        description="The values entering attention, rotated by their positions where rotary_value is set",
    )
    attention_scores = own_value(
        "attention_scores",
        "self.source.nn_functional_softmax_0.input",
        description="The attention scores entering the softmax: divided by sqrt(head_dim), plus the additive mask",
    )
    attention_probabilities = own_value("attention_probabilities", "self.dropout.output")
    attention_head_outputs = own_value("attention_head_outputs", "self.source.torch_matmul_1.output", HEADS_FIRST)


ENVOYS = {
    RoFormerModel: BertStack,
    RoFormerEncoder: BertStack,
    RoFormerLayer: Layer,
    RoFormerAttention: Attention,
    FeedForward: BertMlp,
}

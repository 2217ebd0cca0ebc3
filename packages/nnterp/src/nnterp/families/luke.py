"""LUKE (`LukeForMaskedLM`, model type `luke`): a RoBERTa-shaped post-LN encoder with optional entity inputs.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `LukeForMaskedLM` by default, or bare
(`LukeModel`, `task="feature-extraction"`) for probing, with the same names (the
trunk sits under `luke` in the first and is the root in the second). Every position
attends to every other one; padding is masked.

Entities are optional inputs (`entity_ids`, `entity_attention_mask`,
`entity_position_ids`, passed with the token inputs). Without them every value is
over the words, as on BERT. With them each block carries two streams, the words and
the entities, which attend to each other: the block's `layer_input` and
`layer_output` are the word stream (the entity stream is the block's second input
and output), while the values inside the block, `attention_output`, `layer_mid`,
`mlp_norm_output`, `mlp_output` and the attention's interior, run over the words
followed by the entities, the sequence the sublayers see. Under
`use_entity_aware_attention` (the default) such a call computes the queries in four
parts (word to word, word to entity, entity to word, entity to entity), and
`attention_queries`, read where the one query product of a call without entities
takes them, is not reached. The head's entity predictions (`entity_predictions`,
`entity_logits`) are the model's own output beside `logits`.

The blocks are BERT's (`nnterp.components.bert_block`), post-LN, regrouped so that
`self_attn` is the attention and `mlp` the feed-forward container, with no norm
before the attention and no final norm. The embedding module sums the token,
segment and position tables (RoBERTa's positions) and norms the sum: block 0 reads
the normed sum, and `token_embeddings` is the token table's output (`embed_tokens`).
The attention's inner `self` does its own arithmetic under every attention
implementation, read at its operations (the keys and values where they are split
into heads). The head (`lm_head`) is a dense layer, GELU, a LayerNorm and the
projection onto the vocabulary, read on the last `layer_output`, so the logit lens
is `lm_head` alone.
"""

from transformers.models.luke.modeling_luke import LukeAttention, LukeEncoder, LukeLayer, LukeModel

from nnterp.components import HEADS_FIRST, NO_FINAL_NORM, PostLNLayer, lm_head_only, own_value, unavailable
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertMlp, BertOwnAttention, BertStack, FeedForward

ENCODER = True

RENAME = {
    "luke.embeddings.word_embeddings": "embed_tokens",
    "luke.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only


class Attention(BertOwnAttention):
    """LUKE's attention: BERT's own arithmetic, with the entity-aware query products ahead of the plain one."""

    attention_queries = own_value(
        "attention_queries",
        "self.source.torch_matmul_4.inputs",
        select=0,
        description="The queries entering attention, on a call without entities",
    )
    attention_keys = own_value("attention_keys", "self.source.self_transpose_for_scores_0.output")
    attention_values = own_value("attention_values", "self.source.self_transpose_for_scores_1.output")
    attention_head_outputs = own_value("attention_head_outputs", "self.source.torch_matmul_5.output", HEADS_FIRST)


class Layer(PostLNLayer):
    """LUKE's regrouped post-LN block; it returns the word stream, then the entity stream (`None` without entities)."""

    returns_tuple = True


ENVOYS = {
    LukeModel: BertStack,
    LukeEncoder: BertStack,
    LukeLayer: Layer,
    LukeAttention: Attention,
    FeedForward: BertMlp,
}

"""TAPAS (`TapasForMaskedLM`, model type `tapas`): BERT over a flattened table, a bidirectional post-LN encoder.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `TapasForMaskedLM` by default, or bare
(`TapasModel`, `task="feature-extraction"`) for probing, with the same names (the
trunk sits under `tapas` in the first and is the root in the second). Every position
attends to every other one; padding is masked.

TAPAS reads a table flattened after the question, and marks each token with seven
token-type ids, `token_type_ids` of shape `[batch, seq, 7]` (segment, column, row,
previous answer, column rank, inverse column rank, numeric relation), one
embedding table per column. A prompt without them (text alone, as a trace passes
it) gets zeros in every column from the trunk, the question segment in cell (0, 0);
a table's ids come from its own tokenizer (`TapasTokenizer`) and are passed as a
keyword of the trace. Under `reset_position_index_per_cell` the positions restart
in each cell. The embedding module sums the token table, the positions and the
seven type tables and norms the sum: block 0 reads the normed sum, and
`token_embeddings` is the token table's output (`embed_tokens`).

The blocks are BERT's (`nnterp.components.bert_block`), post-LN, regrouped so that
`self_attn` is the attention and `mlp` the feed-forward container, with no norm
before the attention and no final norm; the attention's inner `self` does BERT's
original arithmetic in its own forward (`BertOwnAttention`), read under every
attention implementation. The head (`cls`, aliased `lm_head`) is a transform and
the projection onto the vocabulary, read on the last `layer_output`, so the logit
lens is `lm_head` alone.
"""

from transformers.models.tapas.modeling_tapas import TapasAttention, TapasEncoder, TapasLayer, TapasModel

from nnterp.components import NO_FINAL_NORM, PostLNLayer, lm_head_only, unavailable
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertMlp, BertOwnAttention, BertStack, FeedForward
from nnterp.components.layer import returns_tuple_by_annotation

ENCODER = True

RENAME = {
    "tapas.embeddings.word_embeddings": "embed_tokens",
    "tapas.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "cls": "lm_head",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only


class Layer(PostLNLayer):
    """TAPAS's regrouped post-LN block."""

    returns_tuple = returns_tuple_by_annotation(TapasLayer)


ENVOYS = {
    TapasModel: BertStack,
    TapasEncoder: BertStack,
    TapasLayer: Layer,
    TapasAttention: BertOwnAttention,
    FeedForward: BertMlp,
}

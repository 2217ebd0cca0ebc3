"""RemBERT (`RemBertForMaskedLM`, model type `rembert`): a bidirectional post-LN encoder with decoupled embeddings.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `RemBertForMaskedLM` by default, or bare
(`RemBertModel`, `task="feature-extraction"`) for probing, with the same names (the
trunk sits under `rembert` in the first and is the root in the second). Every
position attends to every other one; padding is masked.

RemBERT decouples the embedding widths from the stream's: the token, segment and
position tables are `input_embedding_size` wide, the embedding module norms their
sum at that width, and the encoder stack maps it to `hidden_size`
(`encoder.embedding_hidden_mapping_in`) before block 0, so `layers[0].layer_input`
is that map's output. The token table is `embed_tokens`; where it is narrower than
the stream, `token_embeddings` (a stream-wide value) is unavailable with the
reason, and `embed_tokens.output` holds the token vectors at their own width. The
head's transform is `output_embedding_size` wide too (`cls.predictions.dense`,
the activation, a LayerNorm), and the projection onto the vocabulary reads it.

The blocks are BERT's (`nnterp.components.bert_block`), post-LN, regrouped so that
`self_attn` is the attention and `mlp` the feed-forward container, with no norm
before the attention and no final norm; the attention's inner `self` does BERT's
original arithmetic in its own forward (`BertOwnAttention`), read under every
attention implementation. The head (`cls`, aliased `lm_head`) reads the last
`layer_output`, so the logit lens is `lm_head` alone.
"""

from transformers.models.rembert.modeling_rembert import RemBertAttention, RemBertEncoder, RemBertLayer, RemBertModel

from nnterp.components import NO_FINAL_NORM, EProperty, PostLNLayer, Residual, lm_head_only, unavailable
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertMlp, BertOwnAttention, BertStack, FeedForward
from nnterp.components.layer import returns_tuple_by_annotation

ENCODER = True

RENAME = {
    "rembert.embeddings.word_embeddings": "embed_tokens",
    "rembert.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "cls": "lm_head",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only


def _narrow_token_table(model) -> str | None:
    """Why `token_embeddings` is missing: the token table is narrower than the stream."""
    config = model.config
    if config.input_embedding_size == config.hidden_size:
        return None
    return (
        f"RemBERT's token table is input_embedding_size={config.input_embedding_size} wide, not the stream's "
        f"hidden_size={config.hidden_size}: read embed_tokens.output for the token vectors at their own width; the "
        "stream begins at layers[0].layer_input, after encoder.embedding_hidden_mapping_in"
    )


@EProperty("embed_tokens.output", description="The embedding module's output", unavailable=_narrow_token_table)
def token_embeddings(self, value) -> Residual:
    return value


class Layer(PostLNLayer):
    """RemBERT's regrouped post-LN block."""

    returns_tuple = returns_tuple_by_annotation(RemBertLayer)


ENVOYS = {
    RemBertModel: BertStack,
    RemBertEncoder: BertStack,
    RemBertLayer: Layer,
    RemBertAttention: BertOwnAttention,
    FeedForward: BertMlp,
}

"""RoCBert (`RoCBertForMaskedLM`, model type `roc_bert`): a BERT-layout post-LN encoder under its masked-LM head.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `RoCBertForMaskedLM` by default, or bare
(`RoCBertModel`, `task="feature-extraction"`) for probing, and the same names serve both
(the trunk sits under `roc_bert` in the first and is the root in the second). Every
position attends to every other one; padding is masked. The model is BERT's (`nnterp.families.bert`) but for RoCBert's glyph-shape and
pronunciation tables.

The blocks are BERT's (`nnterp.components.bert_block`), regrouped at load: `self_attn`
is the attention, `mlp` the feed-forward container, and the block is post-LN, with no
norm before the attention and no final norm. The embedding module reads three tables per token, the token table, a shape table
(`shape_embed`, by `input_shape_ids`) and a pronunciation table
(`pronunciation_embed`, by `input_pronunciation_ids`); either id tensor defaults to
zeros, the padding row, when the caller passes none (RoCBert's tokenizer writes both).
Under `concat_input` (the default) the three are concatenated and projected
(`map_inputs_layer`), the segment and position tables are added and the sum is
normed; without it the normed BERT sum is averaged with whichever of the shape and
pronunciation embeddings the caller passed ids for. `token_embeddings` is the token
table's output (`embed_tokens`), and block 0 reads what the embedding module returns.
The head (`cls`, aliased `lm_head`) is a transform (a dense layer, the activation, a
LayerNorm) then the projection onto the vocabulary (`lm_head.predictions.decoder`),
so the logit lens is `lm_head` alone on a stream, and the last `layer_output` through
it is the logits.
"""

from transformers.models.roc_bert.modeling_roc_bert import (
    RoCBertAttention,
    RoCBertEncoder,
    RoCBertLayer,
    RoCBertModel,
)

from nnterp.components import NO_FINAL_NORM, PostLNLayer, lm_head_only, unavailable
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertAttention, BertMlp, BertStack, FeedForward

ENCODER = True

RENAME = {
    "roc_bert.embeddings.word_embeddings": "embed_tokens",
    "roc_bert.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "cls": "lm_head",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

ENVOYS = {
    RoCBertModel: BertStack,
    RoCBertEncoder: BertStack,
    RoCBertLayer: PostLNLayer,
    RoCBertAttention: BertAttention,
    FeedForward: BertMlp,
}

"""BERT (`BertForMaskedLM`, model type `bert`): a bidirectional post-LN encoder under its masked-LM head.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `BertForMaskedLM` by default, or bare
(`BertModel`, `task="feature-extraction"`) for probing, and the same names serve both
(the trunk sits under `bert` in the first and is the root in the second). A
checkpoint saved as `BertLMHeadModel` (transformers' causal-LM entry for the type)
loads the same way. Every position attends to every other one; padding is masked.

The blocks are BERT's (`nnterp.components.bert_block`): the attention's output
module and the feed-forward path are regrouped at load, so `self_attn` is the
attention and `mlp` the feed-forward container, and the block is post-LN, with no
norm before the attention and no final norm. The embedding module sums the token,
segment and position tables and norms the sum: `token_embeddings` is the token
table's output (`embed_tokens`), and block 0 reads the normed sum. The head (`cls`,
aliased `lm_head`) is a transform (a dense layer, the activation, a LayerNorm) and
the projection onto the vocabulary, so the logit lens is `lm_head` alone on a
stream, and the last `layer_output` through it is the logits.
"""

from transformers.models.bert.modeling_bert import BertAttention, BertEncoder, BertLayer, BertModel

from nnterp.components import NO_FINAL_NORM, PostLNLayer, lm_head_only, unavailable
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertMlp, BertStack, FeedForward
from nnterp.components.bert_block import BertAttention as Attention

ENCODER = True

RENAME = {
    "bert.embeddings.word_embeddings": "embed_tokens",
    "bert.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "cls": "lm_head",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

ENVOYS = {
    BertModel: BertStack,
    BertEncoder: BertStack,
    BertLayer: PostLNLayer,
    BertAttention: Attention,
    FeedForward: BertMlp,
}

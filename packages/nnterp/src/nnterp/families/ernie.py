"""ERNIE (`ErnieForMaskedLM`, model type `ernie`): a BERT-layout post-LN encoder under its masked-LM head.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `ErnieForMaskedLM` by default, or bare
(`ErnieModel`, `task="feature-extraction"`) for probing, and the same names serve both
(the trunk sits under `ernie` in the first and is the root in the second). Every
position attends to every other one; padding is masked. The model is BERT's (`nnterp.families.bert`) but for ERNIE's task-type table.

The blocks are BERT's (`nnterp.components.bert_block`), regrouped at load: `self_attn`
is the attention, `mlp` the feed-forward container, and the block is post-LN, with no
norm before the attention and no final norm. The embedding module sums the token, segment and position tables, and the
task-type table where `use_task_id` is set (ERNIE 3.0; task id 0 unless the caller
passes `task_type_ids`), and norms the sum: `token_embeddings` is the token table's
output (`embed_tokens`), and block 0 reads the normed sum.
The head (`cls`, aliased `lm_head`) is a transform (a dense layer, the activation, a
LayerNorm) then the projection onto the vocabulary (`lm_head.predictions.decoder`),
so the logit lens is `lm_head` alone on a stream, and the last `layer_output` through
it is the logits.
"""

from transformers.models.ernie.modeling_ernie import (
    ErnieAttention,
    ErnieEncoder,
    ErnieLayer,
    ErnieModel,
)

from nnterp.components import NO_FINAL_NORM, PostLNLayer, lm_head_only, unavailable
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertAttention, BertMlp, BertStack, FeedForward

ENCODER = True

RENAME = {
    "ernie.embeddings.word_embeddings": "embed_tokens",
    "ernie.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "cls": "lm_head",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

ENVOYS = {
    ErnieModel: BertStack,
    ErnieEncoder: BertStack,
    ErnieLayer: PostLNLayer,
    ErnieAttention: BertAttention,
    FeedForward: BertMlp,
}

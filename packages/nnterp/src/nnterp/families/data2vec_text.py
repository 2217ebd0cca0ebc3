"""Data2Vec text (`Data2VecTextForMaskedLM`, model type `data2vec-text`): RoBERTa's encoder under its own trunk name.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `Data2VecTextForMaskedLM` by default, or bare
(`Data2VecTextModel`, `task="feature-extraction"`), and the same names serve both (the
trunk sits under `data2vec_text` in the first and is the root in the second). A
checkpoint saved as `Data2VecTextForCausalLM` loads the same way. Every position
attends to every other one; padding is masked.

The model is RoBERTa's (`nnterp.families.roberta`) but for the trunk's name: BERT's
post-LN blocks, regrouped at load (`nnterp.components.bert_block`), with no norm
before the attention and no final norm; the embedding module sums the token, segment
and position tables and norms the sum, the position ids counting the real tokens from
`pad_token_id + 1`. The head (`lm_head`) is a transform (a dense layer, GELU, a
LayerNorm) then the projection onto the vocabulary (`lm_head.decoder`): the logit lens
is `lm_head` alone on a stream.
"""

from transformers.models.data2vec.modeling_data2vec_text import (
    Data2VecTextAttention,
    Data2VecTextEncoder,
    Data2VecTextLayer,
    Data2VecTextModel,
)

from nnterp.components import PostLNLayer
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertAttention, BertMlp, BertStack, FeedForward
from nnterp.families.roberta import ENCODER, final_norm_output, project_on_vocab

__all__ = ["ENCODER", "RENAME", "final_norm_output", "project_on_vocab"]

RENAME = {
    "data2vec_text.embeddings.word_embeddings": "embed_tokens",
    "data2vec_text.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    **BERT_BLOCK_RENAME,
}

ENVOYS = {
    Data2VecTextModel: BertStack,
    Data2VecTextEncoder: BertStack,
    Data2VecTextLayer: PostLNLayer,
    Data2VecTextAttention: BertAttention,
    FeedForward: BertMlp,
}

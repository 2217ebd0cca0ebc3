"""RoBERTa (`RobertaForMaskedLM`, model type `roberta`): BERT's post-LN encoder with offset positions and its own head.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `RobertaForMaskedLM` by default, or bare
(`RobertaModel`, `task="feature-extraction"`), and the same names serve both (the
trunk sits under `roberta` in the first and is the root in the second). A checkpoint
saved as `RobertaForCausalLM` loads the same way. Every position attends to every
other one; padding is masked.

The blocks are BERT's (`nnterp.components.bert_block`), regrouped at load: `self_attn`
is the attention, `mlp` the feed-forward container, the block is post-LN with no norm
before the attention and no final norm. The embedding module sums the token, segment
and position tables and norms the sum; `token_embeddings` is the token table's output
and block 0 reads the normed sum. The position ids count the real tokens from
`pad_token_id + 1`, and a padding position reads the padding row: the first token of
a prompt is at position `pad_token_id + 1`, not 0. The head (`lm_head`, native) is a
transform (a dense layer, GELU, a LayerNorm) then the projection onto the vocabulary
(`lm_head.decoder`), so the logit lens is `lm_head` alone on a stream, and the last
`layer_output` through it is the logits.
"""

from transformers.models.roberta.modeling_roberta import (
    RobertaAttention,
    RobertaEncoder,
    RobertaLayer,
    RobertaModel,
)

from nnterp.components import NO_FINAL_NORM, PostLNLayer, lm_head_only, unavailable
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertAttention, BertMlp, BertStack, FeedForward

__all__ = ["ENCODER", "RENAME", "final_norm_output", "project_on_vocab"]

ENCODER = True

RENAME = {
    "roberta.embeddings.word_embeddings": "embed_tokens",
    "roberta.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

ENVOYS = {
    RobertaModel: BertStack,
    RobertaEncoder: BertStack,
    RobertaLayer: PostLNLayer,
    RobertaAttention: BertAttention,
    FeedForward: BertMlp,
}

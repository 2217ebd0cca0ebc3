"""CamemBERT (`CamembertForMaskedLM`, model type `camembert`): RoBERTa's encoder under its own classes.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

As RoBERTa (`nnterp.families.roberta`), whose names it takes: an encoder (`ENCODER`)
that loads under `CamembertForMaskedLM` by default, or bare (`CamembertModel`,
`task="feature-extraction"`), the trunk under `roberta` in the first and the root in
the second; a checkpoint saved as `CamembertForCausalLM` loads the same way. BERT's
post-LN blocks, regrouped at load (`nnterp.components.bert_block`), with no norm
before the attention and no final norm. The embedding module sums the token, segment
and position tables and norms the sum, the position ids counting the real tokens from
`pad_token_id + 1`. The head (`lm_head`) is a transform (a dense layer, GELU, a
LayerNorm) then the projection onto the vocabulary (`lm_head.decoder`): the logit
lens is `lm_head` alone on a stream.
"""

from transformers.models.camembert.modeling_camembert import (
    CamembertAttention,
    CamembertEncoder,
    CamembertLayer,
    CamembertModel,
)

from nnterp.components import PostLNLayer
from nnterp.components.bert_block import BertAttention, BertMlp, BertStack, FeedForward
from nnterp.families.roberta import ENCODER, RENAME, final_norm_output, project_on_vocab

__all__ = ["ENCODER", "RENAME", "final_norm_output", "project_on_vocab"]

ENVOYS = {
    CamembertModel: BertStack,
    CamembertEncoder: BertStack,
    CamembertLayer: PostLNLayer,
    CamembertAttention: BertAttention,
    FeedForward: BertMlp,
}

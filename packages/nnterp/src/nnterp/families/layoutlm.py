"""LayoutLM (`LayoutLMForMaskedLM`, model type `layoutlm`): a BERT-layout post-LN encoder under its masked-LM head.

`h = post_attention_layernorm(x + self_attn(x)); out = mlp.ffn_output.LayerNorm(h + mlp(h))`

An encoder (`ENCODER`): it loads under `LayoutLMForMaskedLM` by default, or bare
(`LayoutLMModel`, `task="feature-extraction"`) for probing, and the same names serve both
(the trunk sits under `layoutlm` in the first and is the root in the second). Every
position attends to every other one; padding is masked. The model is BERT's (`nnterp.families.bert`) but for LayoutLM's 2-D position tables.

The blocks are BERT's (`nnterp.components.bert_block`), regrouped at load: `self_attn`
is the attention, `mlp` the feed-forward container, and the block is post-LN, with no
norm before the attention and no final norm. The embedding module adds, to BERT's token, segment and position tables, a table
per box coordinate (`x_position_embeddings` for the left and right edges,
`y_position_embeddings` for the top and bottom ones, `h_position_embeddings` and
`w_position_embeddings` for the box's height and width), read from `bbox`
(`[batch, seq, 4]`, coordinates in 0..`max_2d_position_embeddings - 1`), and norms
the sum. A trace passes the boxes as a keyword (`model.trace(prompt, bbox=boxes)`);
without them the model reads every box as zeros, as transformers does.
`token_embeddings` is the token table's output (`embed_tokens`), and block 0 reads
the normed sum.
The head (`cls`, aliased `lm_head`) is a transform (a dense layer, the activation, a
LayerNorm) then the projection onto the vocabulary (`lm_head.predictions.decoder`),
so the logit lens is `lm_head` alone on a stream, and the last `layer_output` through
it is the logits.
"""

from transformers.models.layoutlm.modeling_layoutlm import (
    LayoutLMAttention,
    LayoutLMEncoder,
    LayoutLMLayer,
    LayoutLMModel,
)

from nnterp.components import NO_FINAL_NORM, PostLNLayer, lm_head_only, unavailable
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertAttention, BertMlp, BertStack, FeedForward

ENCODER = True

RENAME = {
    "layoutlm.embeddings.word_embeddings": "embed_tokens",
    "layoutlm.encoder.layer": "layers",
    "embeddings.word_embeddings": "embed_tokens",
    "encoder.layer": "layers",
    "cls": "lm_head",
    **BERT_BLOCK_RENAME,
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

ENVOYS = {
    LayoutLMModel: BertStack,
    LayoutLMEncoder: BertStack,
    LayoutLMLayer: PostLNLayer,
    LayoutLMAttention: BertAttention,
    FeedForward: BertMlp,
}

"""ModernVBERT (`ModernVBertForMaskedLM`, model type `modernvbert`): ModernBERT under a vision wrapper, served as text.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

The wrapper holds a SigLIP tower, a pixel-shuffle connector and a ModernBERT text
model (`model.text_model`), with a masked-LM head on top. Transformers lists it as a
masked LM only, with no image-text-to-text class and no processor of its own, so it
loads as an encoder (`ENCODER`): under `ModernVBertForMaskedLM` by default, or bare
(`ModernVBertModel`, `task="feature-extraction"`), with the same names. A prompt
is text alone, so no image reaches the text model and the tower does not run: the
family serves the text model's values, and nothing of the tower or the connector.

The text model is ModernBERT's (`nnterp.families.modernbert`): pre-norm blocks, so
`layer_input + attention_output + mlp_output == layer_output` bit for bit, block 0's
attention norm an identity, global and windowed blocks by `layer_types`, and a final
norm. The wrapper embeds the ids itself and hands the text model the embeddings,
which it norms before block 0: `token_embeddings` is the token table's output. The
head is the wrapper's own: `projection_head` (a dense layer, an activation, a
LayerNorm) then `lm_head`, the projection onto the vocabulary, so `lm_head_output`
is the logits and `project_on_vocab` runs the final norm, `projection_head` and
`lm_head`, as the model does.
"""

from nnterp.components import LogitLens
from nnterp.families import modernbert

ENCODER = True

RENAME = {
    "model.text_model.embeddings.tok_embeddings": "embed_tokens",
    "model.text_model.layers": "layers",
    "model.text_model.final_norm": "norm",
    "text_model.embeddings.tok_embeddings": "embed_tokens",
    "text_model.layers": "layers",
    "text_model.final_norm": "norm",
    **modernbert.BLOCK_RENAME,
}

#: The wrapper's prediction head, then its vocabulary projection, after the text model's final norm.
project_on_vocab = LogitLens(head=("projection_head", "lm_head"))

ENVOYS = modernbert.ENVOYS

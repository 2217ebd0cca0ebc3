"""UltraVBERT (`UltraVBertForMaskedLM`, model type `ultravbert`): UltraBERT under a vision wrapper, served as text.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

The wrapper holds a SigLIP tower, a pixel-shuffle connector and an UltraBERT text
model (`model.text_model`), with a masked-LM head on top. Transformers lists it as a
masked LM, with no image-text-to-text class, so it loads as an encoder (`ENCODER`):
under `UltraVBertForMaskedLM` by default, or bare (`UltraVBertModel`,
`task="feature-extraction"`), with the same names. A prompt is text alone, so no image
reaches the text model and the tower does not run: the family serves the text
model's values, and nothing of the tower or the connector.

The text model is UltraBERT's (`nnterp.families.ultrabert`): Llama's pre-norm blocks
with no causal mask, so `layer_input + attention_output + mlp_output == layer_output`
bit for bit, global and banded blocks by `layer_types`, and a final RMS norm. A
banded block lets a query weigh the keys at most `sliding_window` positions before or
after it, so `attention_window` is `2 * sliding_window + 1`. The wrapper embeds the ids
with the text model's token table and hands the text model the embeddings, which
enter block 0 as they are: `token_embeddings` is the table's output and
`layers[0].layer_input`. The head is the wrapper's own: `projection_head`
(`linear1`, GELU, `linear2`, GELU) then `lm_head`, the projection onto the vocabulary,
so `lm_head_output` is the logits and `project_on_vocab` runs the final norm,
`projection_head` and `lm_head`, as the model does.
"""

from nnterp.components import LogitLens
from nnterp.families import ultrabert

ENCODER = True

RENAME = {
    "model.text_model.embed_tokens": "embed_tokens",
    "model.text_model.layers": "layers",
    "model.text_model.norm": "norm",
    "text_model.embed_tokens": "embed_tokens",
    "text_model.layers": "layers",
    "text_model.norm": "norm",
}

#: The wrapper's prediction head, then its vocabulary projection, after the text model's final norm.
project_on_vocab = LogitLens(head=("projection_head", "lm_head"))

#: UltraBERT's envoys (its attention's band reaches both ways from the query).
ENVOYS = ultrabert.ENVOYS

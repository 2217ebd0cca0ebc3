"""Emu3's text model (`Emu3ForCausalLM`, and the text stack of `Emu3ForConditionalGeneration`): Llama's block.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`, the
block's `dropout` on each sublayer's output before the add, the identity in eval mode.
The attention and the gated MLP are Llama's, so its classes subclass Llama's unchanged.

Emu3 fuses early: its VQ-VAE (`model.vqmodel`) turns each image into a grid of codebook
indices, the vocabulary map turns each code into an ordinary vocabulary id and appends
an end-of-row token to each row of the grid, and the wrapper scatters `embed_tokens` of
those ids into the image token positions in `Emu3Model`. No tower of blocks and no
projector sit on that path, so the family names no `vision` and the image is read as
text: `layers[0].layer_input` at the image positions is the codes' and end-of-row
tokens' embeddings. The head bars nothing: `logits` cover the image codes' tokens too.

The config names the text model's type, so both loads of an Emu3 checkpoint resolve
here. Under `task="image-text-to-text"` the wrapper holds the text stack under
`model.text_model`. Under the default task transformers builds `Emu3ForCausalLM`,
whose stack is `model`, but a wrapper checkpoint stores that stack as
`text_model.model.*` (and an untied head as `text_model.lm_head.*`), which transformers
renames for the wrapper only: `TEXT_LOAD_KWARGS` gives that load the `key_mapping` that
loads them into `Emu3ForCausalLM`, and the VQ-VAE's weights are left unused.
"""

from transformers.models.emu3.modeling_emu3 import Emu3Attention, Emu3DecoderLayer, Emu3MLP

from nnterp.families import llama

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "model.text_model.embed_tokens": "embed_tokens",
    "model.text_model.layers": "layers",
    "model.text_model.norm": "norm",
}

#: Load arguments of a default-task load from a checkpoint: a wrapper checkpoint's text weights, renamed to
#: `Emu3ForCausalLM`'s names (an `Emu3ForCausalLM` checkpoint's own names match neither pattern).
TEXT_LOAD_KWARGS = {"key_mapping": {r"^text_model\.model\.": "model.", r"^text_model\.lm_head\.": "lm_head."}}


ENVOYS = {
    Emu3DecoderLayer: llama.Layer,
    Emu3Attention: llama.Attention,
    Emu3MLP: llama.Mlp,
}

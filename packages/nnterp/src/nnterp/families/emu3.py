"""Emu3 (`Emu3ForConditionalGeneration`): Emu3's text model reading each image as VQ-VAE code tokens, no tower.

The text stack sits under `model.text_model` and is served with Emu3's classes
(`nnterp.families.emu3_text_model`). Emu3 fuses early: its VQ-VAE (`model.vqmodel`) turns
each image into a grid of codebook indices, the vocabulary map turns each code into an
ordinary vocabulary id and appends an end-of-row token to each row of the grid, and the
wrapper scatters `embed_tokens` of those ids into the image token positions in
`Emu3Model`. No tower of blocks and no projector sit on that path, so the family names
no `vision` and the image is read as text: `layers[0].layer_input` at the image
positions is the codes' and end-of-row tokens' embeddings. The head bars nothing:
`logits` cover the image codes' tokens too.

Both loads of an Emu3 checkpoint are served here, since the checkpoint's type is this
wrapper's. Under the default task transformers builds `Emu3ForCausalLM`, whose stack is
`model`, but the checkpoint stores that stack as `text_model.model.*` (and an untied
head as `text_model.lm_head.*`), which transformers renames for the wrapper only:
`TEXT_LOAD_KWARGS` gives that load the `key_mapping` that loads them into
`Emu3ForCausalLM`, and the VQ-VAE's weights are left unused.
"""

from nnterp.families import emu3_text_model

RENAME = {
    **emu3_text_model.RENAME,
    "model.text_model.embed_tokens": "embed_tokens",
    "model.text_model.layers": "layers",
    "model.text_model.norm": "norm",
}

#: Load arguments of a default-task load from a checkpoint: the checkpoint's text weights, renamed to
#: `Emu3ForCausalLM`'s names.
TEXT_LOAD_KWARGS = {"key_mapping": {r"^text_model\.model\.": "model.", r"^text_model\.lm_head\.": "lm_head."}}

ENVOYS = {**emu3_text_model.ENVOYS}

"""Apertus 1.5 (`Apertus1p5ForConditionalGeneration`): Apertus 1.5's text model, fed images as VQ code tokens.

The text stack sits under `model.language_model` and is served with Apertus 1.5's text
classes (`nnterp.families.apertus1p5_text`). The wrapper fuses early: its VQ image
tokenizer (`model.vision_tokenizer`, a convolutional encoder and a codebook scored by
inner product) turns each image into a grid of codebook indices, offset into ordinary
vocabulary ids, and the wrapper scatters `embed_tokens` of those ids into the image
token positions in `Apertus1p5Model`; its audio tokenizer does the same for audio
clips. No tower of blocks and no projector sit on that path, so the family names no
`vision` and the image is read as text: `layers[0].layer_input` at the image positions
is the codes' embeddings. The wrapper has no text-only class, so the default task
builds it with no processor.
"""

from nnterp.components.vision import WRAPPED_TEXT_RENAME
from nnterp.families import apertus1p5_text

RENAME = {**apertus1p5_text.RENAME, **WRAPPED_TEXT_RENAME}

ENVOYS = dict(apertus1p5_text.ENVOYS)

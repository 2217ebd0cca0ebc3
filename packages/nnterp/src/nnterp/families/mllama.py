"""Mllama (`MllamaForConditionalGeneration`, Llama 3.2 Vision): Mllama's text model beside a tiled two-stage ViT.

The text stack sits under `model.language_model` and is served with Mllama's classes
(`nnterp.families.mllama_text_model`), its cross-attention blocks among Llama's. The ViT
(at `model.vision_model`) runs a local encoder (`transformer`) and then a gated global
one (`global_transformer`) over each image's tiles, and the projector (at
`model.multi_modal_projector`) maps its output to the cross-attention states. Nothing is
scattered into the token stream: the image reaches the text only through the
cross-attention blocks, which run on an image and serve no value yet. No value of the
tower is served yet either, so the family names no `vision` and no `projector`.

A default-task load of a Mllama checkpoint builds `MllamaForCausalLM`, its stack at
`model`, and is served here too, since the checkpoint's type is this wrapper's.
"""

from nnterp.components.vision import WRAPPED_TEXT_RENAME
from nnterp.families import mllama_text_model

RENAME = {**mllama_text_model.RENAME, **WRAPPED_TEXT_RENAME}

ENVOYS = {**mllama_text_model.ENVOYS}

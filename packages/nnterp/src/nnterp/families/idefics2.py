"""Idefics 2 (`Idefics2ForConditionalGeneration`): Mistral's text model behind a SigLIP-built tower and a perceiver connector.

The text stack sits under `model.text_model` and is served with Mistral's classes
(`nnterp.families.mistral`). The tower (`vision`, at `model.vision_model`) is built like
SigLIP, and its `post_layernorm` norms every patch (its `norm`). The connector
(`projector`, at `model.connector`) projects the patches and resamples them with a
perceiver to a fixed number of latents per image. The wrapper writes the features in
through its `inputs_merger` helper, so `image_features` is that call's
`image_hidden_states`, `[images, latents, hidden_size]` flattened.
"""

from transformers.models.idefics2.modeling_idefics2 import (
    Idefics2EncoderLayer,
    Idefics2Model,
    Idefics2VisionAttention,
    Idefics2VisionMLP,
    Idefics2VisionTransformer,
)

from nnterp.components import Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, InputsMerger
from nnterp.families import mistral

RENAME = {
    **mistral.RENAME,
    "model.text_model.embed_tokens": "embed_tokens",
    "model.text_model.layers": "layers",
    "model.text_model.norm": "norm",
    "model.vision_model": "vision",
    "model.connector": "projector",
    **SIGLIP_TOWER_RENAME,
    "post_layernorm": "norm",
}

ENVOYS = {
    **mistral.ENVOYS,
    Idefics2VisionTransformer: Vision,
    Idefics2EncoderLayer: VisionLayer,
    Idefics2VisionAttention: VisionAttention,
    Idefics2VisionMLP: VisionMlp,
    Idefics2Model: InputsMerger,
}

"""Idefics 3 (`Idefics3ForConditionalGeneration`): Llama's text model behind a SigLIP-built tower and a pixel-shuffle connector.

The text stack sits under `model.text_model` and is served with Llama's classes
(`nnterp.families.llama`). The tower (`vision`, at `model.vision_model`) is built like
SigLIP, and its `post_layernorm` norms every patch, so it is the tower's `norm`
(`SiglipVision`). The connector (`projector`, at `model.connector`) pixel-shuffles the
patches and projects them. The wrapper writes the features in through its
`inputs_merger` helper, so `image_features` is that call's `image_hidden_states`,
`[images, image_tokens_per_image, hidden_size]` flattened.
"""

from transformers.models.idefics3.modeling_idefics3 import (
    Idefics3EncoderLayer,
    Idefics3Model,
    Idefics3VisionAttention,
    Idefics3VisionMLP,
    Idefics3VisionTransformer,
)

from nnterp.components import VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, InputsMerger, SiglipVision
from nnterp.families import llama

RENAME = {
    **llama.RENAME,
    "model.text_model.embed_tokens": "embed_tokens",
    "model.text_model.layers": "layers",
    "model.text_model.norm": "norm",
    "model.vision_model": "vision",
    "model.connector": "projector",
    **SIGLIP_TOWER_RENAME,
}


ENVOYS = {
    **llama.ENVOYS,
    Idefics3VisionTransformer: SiglipVision,
    Idefics3EncoderLayer: VisionLayer,
    Idefics3VisionAttention: VisionAttention,
    Idefics3VisionMLP: VisionMlp,
    Idefics3Model: InputsMerger,
}

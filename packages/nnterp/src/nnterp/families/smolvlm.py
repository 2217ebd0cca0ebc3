"""SmolVLM (`SmolVLMForConditionalGeneration`): Idefics 3's layout over Llama's text model, scattering in its own forward.

The text stack sits under `model.text_model` and is served with Llama's classes
(`nnterp.families.llama`). The tower (`vision`, at `model.vision_model`) is built like
SigLIP, and its `post_layernorm` norms every patch, so it is the tower's `norm`
(`SiglipVision`); the pixel-shuffle connector (at `model.connector`) is `projector`.
Unlike Idefics 3, the wrapper scatters in `SmolVLMModel`'s own forward, so
`image_features` is that `masked_scatter`'s source, the connector's output,
`[images, image_tokens_per_image, hidden_size]` flattened.
"""

from transformers.models.smolvlm.modeling_smolvlm import (
    SmolVLMEncoderLayer,
    SmolVLMModel,
    SmolVLMVisionAttention,
    SmolVLMVisionMLP,
    SmolVLMVisionTransformer,
)

from nnterp.components import ImageScatter, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, SiglipVision
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
    SmolVLMVisionTransformer: SiglipVision,
    SmolVLMEncoderLayer: VisionLayer,
    SmolVLMVisionAttention: VisionAttention,
    SmolVLMVisionMLP: VisionMlp,
    SmolVLMModel: ImageScatter,
}

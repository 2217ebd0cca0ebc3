"""LightOnOCR (`LightOnOcrForConditionalGeneration`): Qwen3's text model behind a Pixtral tower.

The text stack sits under `model.language_model` and is served with Qwen3's classes
(`nnterp.families.qwen3`). The Pixtral tower (`vision`, at `model.vision_encoder`) crops
each image's patch grid and packs every image's patches into one row,
`[1, patches, vision_hidden_size]`, with no final norm (`PixtralVision`). The projector
(`projector`, at `model.vision_projection`) norms the last block's stream, merges each
2x2 group of patches, and projects it; the wrapper scatters in `LightOnOcrModel`.
"""

from transformers.models.lighton_ocr.modeling_lighton_ocr import LightOnOcrModel
from transformers.models.pixtral.modeling_pixtral import (
    PixtralAttention,
    PixtralAttentionLayer,
    PixtralMLP,
    PixtralVisionModel,
)

from nnterp.components import ImageScatter, PixtralVision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import PIXTRAL_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import qwen3

RENAME = {
    **qwen3.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_encoder": "vision",
    "model.vision_projection": "projector",
    **PIXTRAL_TOWER_RENAME,
}

ENVOYS = {
    **qwen3.ENVOYS,
    PixtralVisionModel: PixtralVision,
    PixtralAttentionLayer: VisionLayer,
    PixtralAttention: VisionAttention,
    PixtralMLP: VisionMlp,
    LightOnOcrModel: ImageScatter,
}

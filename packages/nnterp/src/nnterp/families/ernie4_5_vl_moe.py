"""ERNIE 4.5 VL (`Ernie4_5_VLMoeForConditionalGeneration`): a modality-split mixture behind a packed ViT and a resampler.

The text stack sits under `model.language_model` and is served with ERNIE 4.5 VL's text
classes (`nnterp.families.ernie4_5_vl_moe_text`), its mixture split by modality. The
tower is a Qwen-like packed ViT (`vision`, at `model.vision_tower`, `QwenVision`): a
linear patch embedding, a 2-D rotary embedding, one attention call per image
(`PER_IMAGE`), and a final norm `ln` over every patch, its `norm`. The resampler
(`projector`, at `model.resampler_model`) merges and projects each 2x2 group of
patches, duplicates the result along time for an image and merges it again, then
projects it to the text width and norms it; the wrapper scatters the result in
`Ernie4_5_VLMoeModel` (`image_features`).
"""

from transformers.models.ernie4_5_vl_moe.modeling_ernie4_5_vl_moe import (
    Ernie4_5_VLMoeModel,
    Ernie4_5_VLMoeVisionAttention,
    Ernie4_5_VLMoeVisionBlock,
    Ernie4_5_VLMoeVisionTransformerPretrainedModel,
    Ernie4_5VLVisionMLP,
)

from nnterp.components import ImageScatter, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import QWEN_TOWER_RENAME, WRAPPED_TEXT_RENAME, QwenVision
from nnterp.families import ernie4_5_vl_moe_text

RENAME = {
    **ernie4_5_vl_moe_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.resampler_model": "projector",
    **QWEN_TOWER_RENAME,
    # The tower's final norm; a bare name, since the text model's `norm` holds the alias at the root
    # (the resampler's inner norms, also `ln`, take it too).
    "ln": "norm",
}

ENVOYS = {
    **ernie4_5_vl_moe_text.ENVOYS,
    Ernie4_5_VLMoeVisionTransformerPretrainedModel: QwenVision,
    Ernie4_5_VLMoeVisionBlock: VisionLayer,
    Ernie4_5_VLMoeVisionAttention: QwenVisionAttention,
    Ernie4_5VLVisionMLP: VisionMlp,
    Ernie4_5_VLMoeModel: ImageScatter,
}

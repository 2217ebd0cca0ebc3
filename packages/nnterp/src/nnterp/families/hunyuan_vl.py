"""HunYuanVL (`HunYuanVLForConditionalGeneration`): Hunyuan dense's text model behind a packed ViT and its patch merger.

The text model sits under `model.language_model` and is served with
`nnterp.families.hunyuan_vl_text`'s classes; transformers has no causal-LM class for it.
The ViT (`vision`, at `model.vision_tower`, `HunyuanVision`) has no final norm, so
`tower_output` is its last block's stream. It packs every image's patches into one row,
`[1, patches, width]`, and calls the attention once per image, so its pattern and
scores are unavailable (`PER_IMAGE`); its patch embedding is a convolution over each
patch alone, `[patches, width, 1, 1]`, served as that one row. The patch merger
(`projector`, at `model.vision_tower.patch_merger`) runs inside the tower once per
image: it merges each 2x2 group with convolutions, adds a learned newline after each
row, projects to the text width, and wraps the image in learned begin and end vectors,
all of which the wrapper scatters in `HunYuanVLModel` (`image_features`).
"""

from transformers.models.hunyuan_vl.modeling_hunyuan_vl import (
    HunYuanVLModel,
    HunYuanVLVisionAttention,
    HunYuanVLVisionBlock,
    HunYuanVLVisionMLP,
    HunYuanVLVisionTransformer,
)

from nnterp.components import ImageScatter, VisionLayer, VisionMlp
from nnterp.components.hunyuan_vision import HUNYUAN_VL_WRAPPER_RENAME, HunyuanVision
from nnterp.components.vision import MiniCPMVisionAttention
from nnterp.families import hunyuan_vl_text

RENAME = {**hunyuan_vl_text.RENAME, **HUNYUAN_VL_WRAPPER_RENAME}

ENVOYS = {
    **hunyuan_vl_text.ENVOYS,
    HunYuanVLVisionTransformer: HunyuanVision,
    HunYuanVLVisionBlock: VisionLayer,
    HunYuanVLVisionAttention: MiniCPMVisionAttention,
    HunYuanVLVisionMLP: VisionMlp,
    HunYuanVLModel: ImageScatter,
}

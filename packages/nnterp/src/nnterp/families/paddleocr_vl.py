"""PaddleOCR-VL (`PaddleOCRVLForConditionalGeneration`): its text model behind a packed NaViT and a 2x2 merger.

The text stack sits under `model.language_model` and is served with PaddleOCR-VL's text
classes (`nnterp.families.paddleocr_vl_text`). The tower is a SigLIP-named NaViT
(`vision`, at `model.visual.vision_model`, `PatchwiseVision`), whose final norm is
`post_layernorm`. It packs every image's patches into one row and calls the attention
once per image, so its pattern and scores are unavailable (`PER_IMAGE`); its patch
embedding is a convolution over each patch alone, `[patches, width, 1, 1]`, served as
that one row, and its queries and keys turn by a 2-D rotary embedding. The projector
(`model.projector`) takes the tower's normed output, norms it again, merges each 2x2
group of patches and projects it to the text width with a two-layer MLP; the wrapper
scatters the result in `PaddleOCRVLModel` (`image_features`).
"""

from transformers.models.paddleocr_vl.modeling_paddleocr_vl import (
    PaddleOCRVisionAttention,
    PaddleOCRVisionEncoderLayer,
    PaddleOCRVisionMLP,
    PaddleOCRVisionTransformer,
    PaddleOCRVLModel,
)

from nnterp.components import ImageScatter, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME, PatchwiseVision
from nnterp.families import paddleocr_vl_text

RENAME = {
    **paddleocr_vl_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.visual.vision_model": "vision",
    "model.projector": "projector",
    **SIGLIP_TOWER_RENAME,
    "post_layernorm": "norm",
}

ENVOYS = {
    **paddleocr_vl_text.ENVOYS,
    PaddleOCRVisionTransformer: PatchwiseVision,
    PaddleOCRVisionEncoderLayer: VisionLayer,
    PaddleOCRVisionAttention: QwenVisionAttention,
    PaddleOCRVisionMLP: VisionMlp,
    PaddleOCRVLModel: ImageScatter,
}

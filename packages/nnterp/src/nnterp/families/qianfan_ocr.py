"""Qianfan-OCR (`QianfanOCRForConditionalGeneration`): InternVL's line over Qwen3's text model.

The text stack sits under `model.language_model` and is served with Qwen3's classes
(`nnterp.families.qwen3`). The InternViT tower (`vision`, at `model.vision_tower`) puts
a CLS token first on the patch axis and scales each sublayer's output per channel
before the add (`lambda_1`, `lambda_2`, as InternVL's), so `attention_output` and
`mlp_output` are the scaled products; its final `layernorm` is the tower's `norm`. The
wrapper drops the CLS row and pixel-shuffles the patch grid (`downsample_ratio` by
side) before the projector (`projector`, at `model.multi_modal_projector`), and
scatters in `QianfanOCRModel`.
"""

from transformers.models.qianfan_ocr.modeling_qianfan_ocr import (
    QianfanOCRModel,
    QianfanOCRVisionAttention,
    QianfanOCRVisionLayer,
    QianfanOCRVisionMLP,
    QianfanOCRVisionModel,
)

from nnterp.components import ImageScatter, VisionLayer
from nnterp.components.vision import (
    INTERNVIT_TOWER_RENAME,
    LLAVA_LAYOUT_RENAME,
    InternVision,
    InternVisionAttention,
    InternVisionMlp,
)
from nnterp.families import qwen3

RENAME = {**qwen3.RENAME, **LLAVA_LAYOUT_RENAME, **INTERNVIT_TOWER_RENAME}

ENVOYS = {
    **qwen3.ENVOYS,
    QianfanOCRVisionModel: InternVision,
    QianfanOCRVisionLayer: VisionLayer,
    QianfanOCRVisionAttention: InternVisionAttention,
    QianfanOCRVisionMLP: InternVisionMlp,
    QianfanOCRModel: ImageScatter,
}

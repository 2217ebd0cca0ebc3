"""EXAONE 4.5 (`Exaone4_5_ForConditionalGeneration`): EXAONE 4's text model behind a Qwen2.5 ViT.

The text stack sits under `model.language_model` and is served with EXAONE 4's classes
(`nnterp.families.exaone4`). The Qwen2.5 ViT (`vision`, at `model.visual`) has RMS
norms, gated MLPs, grouped key/value heads, and window attention on every block outside
`fullatt_block_indexes`. The patches are reordered into window order before the blocks,
and its block values and `tower_output` stay in that order; the merger (`projector`, at
`model.visual.merger`) reverses it after projecting, so `image_features` is in raster
order; the wrapper scatters in `Exaone4_5_Model`. The attention runs once per window or
image, so its pattern and scores are unavailable (`PER_IMAGE`).
"""

from transformers.models.exaone4_5.modeling_exaone4_5 import (
    Exaone4_5_MLP,
    Exaone4_5_Model,
    Exaone4_5_VisionAttention,
    Exaone4_5_VisionBlock,
    Exaone4_5_VisionModel,
)

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import QWEN_VL_WRAPPER_RENAME
from nnterp.families import exaone4

RENAME = {**exaone4.RENAME, **QWEN_VL_WRAPPER_RENAME}

ENVOYS = {
    **exaone4.ENVOYS,
    Exaone4_5_VisionModel: QwenVision,
    Exaone4_5_VisionBlock: VisionLayer,
    Exaone4_5_VisionAttention: QwenVisionAttention,
    Exaone4_5_MLP: VisionMlp,
    Exaone4_5_Model: ImageScatter,
}

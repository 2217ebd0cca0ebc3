"""Qwen2.5-VL (`Qwen2_5_VLForConditionalGeneration`): Qwen2.5-VL's text model behind the Qwen2.5 ViT.

The text stack sits under `model.language_model` and is served with Qwen2.5-VL's text
classes (`nnterp.families.qwen2_5_vl_text`). The Qwen2.5 ViT (`vision`, at
`model.visual`) differs from Qwen2-VL's: RMS norms, gated MLPs, and window attention
on every block outside `fullatt_block_indexes`. Before the blocks it reorders the
patches into window order, and its block values and `tower_output` stay in that
order; it has no final norm. The merger (`projector`, at `model.visual.merger`) norms
its own input, runs inside the tower and reverses the window order after projecting,
so `image_features` is in raster order; the wrapper scatters in `Qwen2_5_VLModel`.
The attention runs once per window or image, so its pattern and scores are
unavailable (`PER_IMAGE`). It has no causal-LM class: the default task loads it with
no processor.
"""

from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import (
    Qwen2_5_VisionTransformerPretrainedModel,
    Qwen2_5_VLMLP,
    Qwen2_5_VLModel,
    Qwen2_5_VLVisionAttention,
    Qwen2_5_VLVisionBlock,
)

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import QWEN_VL_WRAPPER_RENAME
from nnterp.families import qwen2_5_vl_text

RENAME = {**qwen2_5_vl_text.RENAME, **QWEN_VL_WRAPPER_RENAME}

ENVOYS = {
    **qwen2_5_vl_text.ENVOYS,
    Qwen2_5_VisionTransformerPretrainedModel: QwenVision,
    Qwen2_5_VLVisionBlock: VisionLayer,
    Qwen2_5_VLVisionAttention: QwenVisionAttention,
    # The tower's gated MLP; the text blocks' is `Qwen2MLP`.
    Qwen2_5_VLMLP: VisionMlp,
    Qwen2_5_VLModel: ImageScatter,
}

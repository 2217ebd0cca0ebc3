"""Qwen2-VL (`Qwen2VLForConditionalGeneration`): Qwen2-VL's text model behind the packed Qwen ViT.

The text stack sits under `model.language_model` and is served with Qwen2-VL's text
classes (`nnterp.families.qwen2_vl_text`). The Qwen ViT (`vision`, at `model.visual`)
packs every image's patches into one row and calls the attention once per image, so
its pattern and scores are unavailable (`PER_IMAGE`). It has no final norm:
`tower_output` is the last block's stream, and its merger (`projector`, at
`model.visual.merger`) norms its own input and runs inside the tower. The wrapper
scatters in `Qwen2VLModel`. It has no causal-LM class: the default task loads it with
no processor.
"""

from transformers.models.qwen2_vl.modeling_qwen2_vl import (
    Qwen2VisionTransformerPretrainedModel,
    Qwen2VLModel,
    Qwen2VLVisionBlock,
)
from transformers.models.qwen2_vl.modeling_qwen2_vl import VisionAttention as Qwen2VLVisionAttention
from transformers.models.qwen2_vl.modeling_qwen2_vl import VisionMlp as Qwen2VLVisionMlp

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import QWEN_VL_WRAPPER_RENAME
from nnterp.families import qwen2_vl_text

RENAME = {**qwen2_vl_text.RENAME, **QWEN_VL_WRAPPER_RENAME}

ENVOYS = {
    **qwen2_vl_text.ENVOYS,
    Qwen2VisionTransformerPretrainedModel: QwenVision,
    Qwen2VLVisionBlock: VisionLayer,
    Qwen2VLVisionAttention: QwenVisionAttention,
    Qwen2VLVisionMlp: VisionMlp,
    Qwen2VLModel: ImageScatter,
}

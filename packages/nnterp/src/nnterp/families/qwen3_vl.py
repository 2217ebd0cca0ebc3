"""Qwen3-VL (`Qwen3VLForConditionalGeneration`): Qwen3-VL's text model behind the Qwen3 ViT and its DeepStack mergers.

The text stack sits under `model.language_model` and is served with Qwen3-VL's text
classes (`nnterp.families.qwen3_vl_text`), its DeepStack taps included. The Qwen3 ViT
(`vision`, at `model.visual`) packs every image's patches into one row, adds a learned
position grid resampled to each image after `patch_embeddings`, and attends per image
(`PER_IMAGE`). It has no final norm: `tower_output` is the last block's stream, and its
merger (`projector`, at `model.visual.merger`) norms its own input and runs inside the
tower, so a write to `tower_output` never reaches the text. The tower blocks listed in
`vision_config.deepstack_visual_indexes` each feed a merger of their own, and the text
model adds the k-th one's output to the image rows after text block k, so
`image_features` is not the whole image. The wrapper scatters in `Qwen3VLModel`. It
has no causal-LM class: the default task loads it with no processor.
"""

from transformers.models.qwen3_vl.modeling_qwen3_vl import (
    Qwen3VLModel,
    Qwen3VLVisionAttention,
    Qwen3VLVisionBlock,
    Qwen3VLVisionMLP,
    Qwen3VLVisionModel,
)

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import QWEN3_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import qwen3_vl_text

RENAME = {
    **qwen3_vl_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN3_TOWER_RENAME,
}

#: The Qwen3 ViT's classes, which Cosmos3 Omni's wrapper also builds.
TOWER_ENVOYS = {
    Qwen3VLVisionModel: QwenVision,
    Qwen3VLVisionBlock: VisionLayer,
    Qwen3VLVisionAttention: QwenVisionAttention,
    Qwen3VLVisionMLP: VisionMlp,
}

ENVOYS = {**qwen3_vl_text.ENVOYS, **TOWER_ENVOYS, Qwen3VLModel: ImageScatter}

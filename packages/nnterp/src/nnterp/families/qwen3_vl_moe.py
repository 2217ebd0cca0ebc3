"""Qwen3-VL-MoE (`Qwen3VLMoeForConditionalGeneration`): Qwen3-VL-MoE's text model behind Qwen3-VL's ViT and mergers.

The text stack sits under `model.language_model` and is served with Qwen3-VL-MoE's text
classes (`nnterp.families.qwen3_vl_moe_text`), its mixtures and DeepStack taps
included. The Qwen3 ViT (`vision`, at `model.visual`) packs every image's patches into
one row, adds a learned position grid, and attends per image (`PER_IMAGE`). It has no
final norm: `tower_output` is the last block's stream, and its merger (`projector`, at
`model.visual.merger`) norms its own input and runs inside the tower, so a write to
`tower_output` never reaches the text. DeepStack as Qwen3-VL's: the tower blocks listed
in `vision_config.deepstack_visual_indexes` each feed a merger of their own, and the
text model adds the k-th one's output to the image rows after text block k. The wrapper
scatters in `Qwen3VLMoeModel`. It has no causal-LM class: the default task loads it
with no processor.
"""

from transformers.models.qwen3_vl_moe.modeling_qwen3_vl_moe import (
    Qwen3VLMoeModel,
    Qwen3VLMoeVisionAttention,
    Qwen3VLMoeVisionBlock,
    Qwen3VLMoeVisionMLP,
    Qwen3VLMoeVisionModel,
)

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import QWEN3_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import qwen3_vl_moe_text

RENAME = {
    **qwen3_vl_moe_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN3_TOWER_RENAME,
}

ENVOYS = {
    **qwen3_vl_moe_text.ENVOYS,
    Qwen3VLMoeVisionModel: QwenVision,
    Qwen3VLMoeVisionBlock: VisionLayer,
    Qwen3VLMoeVisionAttention: QwenVisionAttention,
    Qwen3VLMoeVisionMLP: VisionMlp,
    Qwen3VLMoeModel: ImageScatter,
}

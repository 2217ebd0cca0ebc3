"""Qwen3.5-MoE (`Qwen3_5MoeForConditionalGeneration`): Qwen3.5-MoE's hybrid text model behind the packed Qwen3 ViT.

Loaded with `task="image-text-to-text"`. The layout is Qwen3.5's wrapper's
(`nnterp.families.qwen3_5`). The text stack sits under `model.language_model`, under
the multimodal rotary embedding, and is served with Qwen3.5-MoE's classes
(`nnterp.families.qwen3_5_moe_text`). The Qwen3 ViT (`vision`, at `model.visual`)
packs every image's patches into one row, adds a learned position grid resampled to
each image, and calls the attention once per image (`PER_IMAGE`). It has no final
norm: `tower_output` is the last block's stream, and its merger (`projector`, at
`model.visual.merger`) norms it and runs inside the tower. The wrapper scatters in
`Qwen3_5MoeModel`. Under the default task the checkpoint loads
`Qwen3_5MoeForCausalLM`, with no tower.
"""

from transformers.models.qwen3_5_moe.modeling_qwen3_5_moe import (
    Qwen3_5MoeModel,
    Qwen3_5MoeVisionAttention,
    Qwen3_5MoeVisionBlock,
    Qwen3_5MoeVisionMLP,
    Qwen3_5MoeVisionModel,
)

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import QWEN3_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import qwen3_5_moe_text

RENAME = {
    **qwen3_5_moe_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN3_TOWER_RENAME,
}


ENVOYS = {
    **qwen3_5_moe_text.ENVOYS,
    Qwen3_5MoeVisionModel: QwenVision,
    Qwen3_5MoeVisionBlock: VisionLayer,
    Qwen3_5MoeVisionAttention: QwenVisionAttention,
    Qwen3_5MoeVisionMLP: VisionMlp,
    Qwen3_5MoeModel: ImageScatter,
}

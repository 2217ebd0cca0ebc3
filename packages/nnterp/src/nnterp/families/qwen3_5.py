"""Qwen3.5 (`Qwen3_5ForConditionalGeneration`): Qwen3.5's hybrid text model behind the packed Qwen3 ViT.

Loaded with `task="image-text-to-text"`. The text stack sits under
`model.language_model`, rotated by the multimodal rotary embedding (temporal, height
and width rows interleaved over the rotary channels), and is served with Qwen3.5's
classes (`nnterp.families.qwen3_5_text`). The Qwen3 ViT (`vision`, at `model.visual`)
packs every image's patches into one row, adds a learned position grid resampled to
each image after `patch_embeddings`, and calls the attention once per image, so its
pattern and scores are unavailable (`PER_IMAGE`). It has no final norm:
`tower_output` is the last block's stream, and the merger (`projector`, at
`model.visual.merger`), which runs inside the tower, norms it before projecting 2x2
patch groups to the text width. The wrapper scatters in `Qwen3_5Model`. Under the
default task the checkpoint loads `Qwen3_5ForCausalLM`, with no tower.
"""

from transformers.models.qwen3_5.modeling_qwen3_5 import (
    Qwen3_5Model,
    Qwen3_5VisionAttention,
    Qwen3_5VisionBlock,
    Qwen3_5VisionMLP,
    Qwen3_5VisionModel,
)

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import QWEN3_TOWER_RENAME, WRAPPED_TEXT_RENAME
from nnterp.families import qwen3_5_text

RENAME = {
    **qwen3_5_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN3_TOWER_RENAME,
}


ENVOYS = {
    **qwen3_5_text.ENVOYS,
    Qwen3_5VisionModel: QwenVision,
    Qwen3_5VisionBlock: VisionLayer,
    Qwen3_5VisionAttention: QwenVisionAttention,
    Qwen3_5VisionMLP: VisionMlp,
    Qwen3_5Model: ImageScatter,
}

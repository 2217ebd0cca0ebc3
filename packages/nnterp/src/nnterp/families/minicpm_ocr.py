"""MiniCPM-OCR (`MiniCPMOcrForConditionalGeneration`): MiniCPM-V 4.6's NaViT tower and merger, read at "4x".

The wrapper's text config is Qwen3.5's (`qwen3_5_text`), served with that family's
envoy classes: the text model under `model.language_model`, given no position ids by
the wrapper, so its rotary rows all count plain token positions. Loaded with
`task="image-text-to-text"`.

The modeling code is MiniCPM-V 4.6's under new names, so the tower's envoy classes
and names are MiniCPM-V 4.6's (`nnterp.components.vision`). The tower (`vision`, at
`model.vision_tower`) packs all images' patches into the one row of a batch of one and
calls the attention once per image (`PER_IMAGE`). The config reads documents in
`"4x"` mode by default: the window-attention merger inside the tower (`vit_merger`)
is skipped, every block runs on all of an image's patches, and `tower_output` is
their stream after the final norm (`vision.norm`, native `post_layernorm`). The
projector (`model.merger`) folds each image's 2x2 patch groups into text-width rows,
a quarter as many as the patches, and `MiniCPMOcrModel`'s forward scatters their
concatenation into the token embeddings at the image tokens.
"""

from transformers.models.minicpm_ocr.modeling_minicpm_ocr import (
    MiniCPMOcrModel,
    MiniCPMOcrVisionAttention,
    MiniCPMOcrVisionEncoderLayer,
    MiniCPMOcrVisionMLP,
    MiniCPMOcrVisionModel,
)

from nnterp.components import ImageScatter, VisionLayer, VisionMlp
from nnterp.components.vision import (
    MINICPM_TOWER_RENAME,
    WRAPPED_TEXT_RENAME,
    MiniCPMVision,
    MiniCPMVisionAttention,
)
from nnterp.families import qwen3_5_text
from nnterp.families.qwen3_5_text import Attention, LinearAttention, Mlp

__all__ = [
    "ENVOYS",
    "RENAME",
    "Attention",
    "LinearAttention",
    "MiniCPMVision",
    "MiniCPMVisionAttention",
    "Mlp",
]

RENAME = {
    **qwen3_5_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    **MINICPM_TOWER_RENAME,
    # The projector's and the window merger's activations (native `act`), under the standard name.
    "act": "act_fn",
}

ENVOYS = {
    **qwen3_5_text.ENVOYS,
    MiniCPMOcrVisionModel: MiniCPMVision,
    MiniCPMOcrVisionEncoderLayer: VisionLayer,
    MiniCPMOcrVisionAttention: MiniCPMVisionAttention,
    MiniCPMOcrVisionMLP: VisionMlp,
    MiniCPMOcrModel: ImageScatter,
}

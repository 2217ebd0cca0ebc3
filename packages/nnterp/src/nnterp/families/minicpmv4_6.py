"""MiniCPM-V 4.6 (`MiniCPMV4_6ForConditionalGeneration`): Qwen3.5's hybrid text model behind a NaViT tower.

The wrapper's text config is Qwen3.5's (`qwen3_5_text`), served here with that
family's envoy classes: the text model sits under `model.language_model`, its gated
DeltaNet and gated attention blocks as in `nnterp.families.qwen3_5_text`, and the
wrapper hands it no position ids, so every rotary row counts the plain token
positions. The tower's keys live in this module, so the text family never imports a
modeling module a release lacks. Loaded with `task="image-text-to-text"`.

The tower (`vision`, at `model.vision_tower`) is SigLIP made NaViT: all images'
patches go in one packed row, `[1, patches, width]`, through a convolution over the
packed patches, plus a learned position grid looked up at each image's own size.
Each block calls the attention once per image, which leaves no single pattern or
score tensor (`PER_IMAGE`). In the default `"16x"` mode a window-attention merger
(native `vit_merger`, not one of the blocks) runs after block
`config.insert_layer_id` and folds each 2x2 patch window into one row, so the
remaining blocks see a quarter of the patches; `"4x"` skips it. `tower_output` is
the stream after the tower's final norm (`vision.norm`, native `post_layernorm`).
The projector (`model.merger`) folds 2x2 groups of that output once more, image by
image, into text-width rows, and `MiniCPMV4_6Model`'s forward scatters their
concatenation into the token embeddings at the image tokens.
"""

from transformers.models.minicpmv4_6.modeling_minicpmv4_6 import (
    MiniCPMV4_6Model,
    MiniCPMV4_6VisionAttention,
    MiniCPMV4_6VisionEncoderLayer,
    MiniCPMV4_6VisionMLP,
    MiniCPMV4_6VisionModel,
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
    "TOWER_RENAME",
    "Attention",
    "LinearAttention",
    "MiniCPMVision",
    "MiniCPMVisionAttention",
    "Mlp",
]

#: The NaViT tower's inner names and the projector, keyed for the MiniCPM wrappers built on it.
TOWER_RENAME = MINICPM_TOWER_RENAME

RENAME = {
    **qwen3_5_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    **TOWER_RENAME,
    # The projector's and the window merger's activations (native `act`), under the standard name.
    "act": "act_fn",
}


ENVOYS = {
    **qwen3_5_text.ENVOYS,
    MiniCPMV4_6VisionModel: MiniCPMVision,
    MiniCPMV4_6VisionEncoderLayer: VisionLayer,
    MiniCPMV4_6VisionAttention: MiniCPMVisionAttention,
    MiniCPMV4_6VisionMLP: VisionMlp,
    MiniCPMV4_6Model: ImageScatter,
}

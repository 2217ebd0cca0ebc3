"""MiniCPM-V 4.7 (`MiniCPMV4_7ForConditionalGeneration`): Qwen3.5's hybrid text model behind a NaViT tower.

The wrapper's text config is Qwen3.5's (`qwen3_5_text`), and this module serves it
with Qwen3.5's envoy classes: the text model under `model.language_model`, rotated
by the canvas multimodal rotary embedding, its gated DeltaNet and gated attention
blocks as in `nnterp.families.qwen3_5_text`. Its own module carries the tower, so
the text family never imports a modeling module an older release lacks. Loaded
with `task="image-text-to-text"`.

The SigLIP-built NaViT tower (`vision`, at `model.vision_tower`) packs every image's
patches into one row, `[1, patches, width]`, embeds them with a convolution over the
packed patches and adds a learned position grid resampled to each image; its
attention runs once per image, so its pattern and scores are unavailable
(`PER_IMAGE`). After block `config.insert_layer_id` a window-attention merger
inside the tower (native `vit_merger`, not a block) merges each 2x2 patch group
into one row, so the later blocks run on a quarter of the patches. The tower's
final norm (`vision.norm`, native `post_layernorm`) ends `tower_output`; the
projector (`model.merger`), outside the tower, merges 2x2 groups again, once per
image, and projects them to the text width, and `MiniCPMV4_7Model`'s forward
scatters its output into the token embeddings.
"""

from transformers.models.minicpmv4_7.modeling_minicpmv4_7 import (
    MiniCPMV4_7Model,
    MiniCPMV4_7VisionAttention,
    MiniCPMV4_7VisionEncoderLayer,
    MiniCPMV4_7VisionMLP,
    MiniCPMV4_7VisionModel,
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

#: MiniCPM-V 4.6's tower names: 4.7's tower is the same NaViT under its own classes.
RENAME = {
    **qwen3_5_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    **MINICPM_TOWER_RENAME,
    # The projector's and the window merger's activations (native `act`), under the standard name.
    "act": "act_fn",
}

ENVOYS = {
    **qwen3_5_text.ENVOYS,
    MiniCPMV4_7VisionModel: MiniCPMVision,
    MiniCPMV4_7VisionEncoderLayer: VisionLayer,
    MiniCPMV4_7VisionAttention: MiniCPMVisionAttention,
    MiniCPMV4_7VisionMLP: VisionMlp,
    MiniCPMV4_7Model: ImageScatter,
}

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

from nnterp.components import (
    EProperty,
    ImageScatter,
    Keys,
    Queries,
    QwenVisionAttention,
    Values,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import variable_resolution
from nnterp.families import qwen3_5_text
from nnterp.families.qwen3_5_text import Attention, Layer, LinearAttention, Mlp

__all__ = [
    "ENVOYS",
    "RENAME",
    "Attention",
    "Layer",
    "LinearAttention",
    "MiniCPMVision",
    "MiniCPMVisionAttention",
    "Mlp",
]

RENAME = {
    **qwen3_5_text.RENAME,
    "model.vision_tower": "vision",
    "model.merger": "projector",
    "embeddings.patch_embedding": "patch_embed",
    "encoder.layers": "layers",
    "layer_norm1": "input_layernorm",
    "layer_norm2": "post_attention_layernorm",
    # Only the tower's attention: the text model's DeltaNet has an `out_proj` of its own.
    "self_attn.out_proj": "self_attn.o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
    "post_layernorm": "norm",
}


class MiniCPMVision(Vision):
    """MiniCPM-V 4.7's NaViT tower: every image's patches in one row of a batch of one, no fixed resolution."""

    ONE_ROW = True
    image_size = property(variable_resolution)


class MiniCPMVisionAttention(QwenVisionAttention):
    """MiniCPM-V 4.7's tower attention: one interface call per image, the queries, keys and values whole before the split."""

    @EProperty("source.transpose_0.output", description="The queries entering attention")
    def attention_queries(self, value) -> Queries:
        return value

    @EProperty("source.transpose_1.output", description="The keys entering attention")
    def attention_keys(self, value) -> Keys:
        return value

    @EProperty("source.transpose_2.output", description="The values entering attention")
    def attention_values(self, value) -> Values:
        return value

    # The tower keeps its batch of one, so the output projection's input is written back as it is, not squeezed.
    attention_premix = VisionAttention.attention_premix


ENVOYS = {
    **qwen3_5_text.ENVOYS,
    MiniCPMV4_7VisionModel: MiniCPMVision,
    MiniCPMV4_7VisionEncoderLayer: VisionLayer,
    MiniCPMV4_7VisionAttention: MiniCPMVisionAttention,
    MiniCPMV4_7VisionMLP: VisionMlp,
    MiniCPMV4_7Model: ImageScatter,
}

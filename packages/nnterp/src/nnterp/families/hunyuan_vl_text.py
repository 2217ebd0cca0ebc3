"""HunYuanVL's text model (`HunYuanVLTextModel`), served on the `HunYuanVLForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Hunyuan dense's block (per-head RMS norms on the queries and keys after the rotary
embedding) under a multimodal rotary embedding: the position ids carry several rows and
`mrope_section` splits each head's rotary channels among them. The wrapper holds the text
model under `model.language_model` and the ViT under `model.vision_tower`, with no final
norm. The tower packs every image's patches into one row, `[1, patches, width]`, and calls
the attention once per image, so its pattern and scores are unavailable (`PER_IMAGE`); its
patch embedding is a convolution over each patch alone, `[patches, width, 1, 1]`, served as
that one row. The patch merger (`projector`) runs inside the tower once per image: it
merges each 2x2 group with convolutions, adds a learned newline after each row, projects
to the text width, and wraps the image in learned begin and end vectors, all of which the
wrapper scatters in `HunYuanVLModel` (`image_features`).
"""

from transformers.models.hunyuan_vl.modeling_hunyuan_vl import (
    HunYuanVLDenseV1Attention,
    HunYuanVLDenseV1DecoderLayer,
    HunYuanVLMLP,
    HunYuanVLModel,
    HunYuanVLVisionAttention,
    HunYuanVLVisionBlock,
    HunYuanVLVisionMLP,
    HunYuanVLVisionTransformer,
)

from nnterp.components import (
    Attention,
    EProperty,
    ImageScatter,
    Keys,
    Layer,
    Mlp,
    Queries,
    QwenVisionAttention,
    Values,
    Vision,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import (
    SIGLIP_TOWER_RENAME,
    WRAPPED_TEXT_RENAME,
    Patches,
    no_tower_run,
    variable_resolution,
)

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.vision_tower.patch_merger": "projector",
    **SIGLIP_TOWER_RENAME,
}


class HunyuanVision(Vision):
    """HunYuanVL's ViT: every image's patches in one row, no fixed resolution, the patches embedded one by one."""

    ONE_ROW = True
    image_size = property(variable_resolution)

    @EProperty(
        "patch_embed.output",
        description="The patch embedding's output, every image's patches in one row",
        unavailable=no_tower_run,
    )
    def patch_embeddings(self, value) -> Patches:
        return value.flatten(1).unsqueeze(0)

    @patch_embeddings.postprocess
    def patch_embeddings(self, value):
        return value.squeeze(0)[..., None, None]


class HunyuanVisionAttention(QwenVisionAttention):
    """HunYuanVL's tower attention: one interface call per image, the queries, keys and values whole before the split."""

    @EProperty("source.transpose_0.output", description="The queries entering attention")
    def attention_queries(self, value) -> Queries:
        return value

    @EProperty("source.transpose_1.output", description="The keys entering attention")
    def attention_keys(self, value) -> Keys:
        return value

    @EProperty("source.transpose_2.output", description="The values entering attention")
    def attention_values(self, value) -> Values:
        return value


ENVOYS = {
    HunYuanVLDenseV1DecoderLayer: Layer,
    HunYuanVLDenseV1Attention: Attention,
    HunYuanVLMLP: Mlp,
    HunYuanVLVisionTransformer: HunyuanVision,
    HunYuanVLVisionBlock: VisionLayer,
    HunYuanVLVisionAttention: HunyuanVisionAttention,
    HunYuanVLVisionMLP: VisionMlp,
    HunYuanVLModel: ImageScatter,
}

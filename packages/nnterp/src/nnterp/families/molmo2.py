"""Molmo2 (`Molmo2ForConditionalGeneration`): OLMo 2's attention in a text model behind a per-crop ViT and an adapter.

The text model sits under `model.language_model` and is served with
`nnterp.families.molmo2_text`'s classes; transformers has no causal-LM class for it, so
the wrapper is what serves it, loaded with `task="image-text-to-text"`. The tower
(`vision`, at `model.vision_tower`, `Molmo2Vision`) is a SigLIP-style ViT over patches
the processor has already cut and flattened: each crop of each image (a resized whole
first, then the overlapping high-resolution crops) is one row, `[crops, patches,
vision_hidden_size]`, its patch embedding a linear layer plus a learned position table,
its blocks pre-norm with an ungated MLP, and no final norm, so `tower_output` is its
last block's stream. The projector (`projector`, at `model.multi_modal_projector`,
Molmo2's adapter) joins the streams of the blocks named by `vision_feature_layer`, pools
each 2x2 window of patches with one cross-attention whose query is the window's mean,
and projects it to the text width with a gated MLP. `Molmo2Model`'s forward adds the
projected image onto the `<im_patch>` token embeddings (`inputs_embeds[mask] +
image_features`) and scatters that sum back, so `image_features` is the sum, the stream
block 0 receives at the image tokens.
"""

from transformers.models.molmo2.modeling_molmo2 import (
    Molmo2Model,
    Molmo2VisionAttention,
    Molmo2VisionEncoderLayer,
    Molmo2VisionMLP,
    Molmo2VisionModel,
)

from nnterp.components import EProperty, ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import (
    LLAVA_LAYOUT_RENAME,
    SIGLIP_TOWER_RENAME,
    ImageFeatures,
    _features_reason,
    image_scatter,
    scattered_argument,
)
from nnterp.families import molmo2_text

RENAME = {
    **molmo2_text.RENAME,
    **LLAVA_LAYOUT_RENAME,
    # The tower's inner names, keyed relative to the tower: its blocks sit at `layers` already.
    **SIGLIP_TOWER_RENAME,
    "patch_embedding": "patch_embed",
}


class Molmo2Vision(Vision):
    """Molmo2's ViT: every crop at the one square resolution its position table fixes."""

    @property
    def image_size(self) -> int:
        """The side of the crop the tower takes, in pixels (the config holds `[height, width]`, square)."""
        height, width = self.tower_config.image_size
        if height != width:
            raise ValueError(f"Molmo2's processor only makes square crops; the tower's image_size is {[height, width]}")
        return height

    @EProperty(
        image_scatter,
        select=scattered_argument,
        description="The projected image added to the image tokens' embeddings, the sum the wrapper writes in",
        unavailable=_features_reason,
    )
    def image_features(self, value) -> ImageFeatures:
        # The scatter's source is flat: the masked embeddings plus the features, both flattened.
        return value.reshape(-1, self.root.hidden_size)

    @image_features.postprocess
    def image_features(self, value):
        return value.reshape(-1)


ENVOYS = {
    **molmo2_text.ENVOYS,
    Molmo2VisionModel: Molmo2Vision,
    Molmo2VisionEncoderLayer: VisionLayer,
    Molmo2VisionAttention: VisionAttention,
    Molmo2VisionMLP: VisionMlp,
    Molmo2Model: ImageScatter,
}

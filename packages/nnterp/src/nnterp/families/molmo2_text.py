"""Molmo2's text model (`Molmo2TextModel`), served on the `Molmo2ForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Llama's block with OLMo 2's attention: `q_norm` and `k_norm` norm the queries and keys
before the rotary embedding, per head (`qk_norm_type="qwen3"`, the released checkpoints')
or over all heads at once (`"olmo"`), so `attention_queries` and `attention_keys` are
normed and rotated, as the interface receives them. The MLP is gated. transformers has
no causal-LM class for `molmo2_text`: the text model is served only inside the wrapper,
under `model.language_model`. Its embedding table holds `vocab_size +
additional_vocab_size` rows (the image marker tokens sit past the head's vocabulary).
Loaded with `task="image-text-to-text"`.

The tower (`vision`, at `model.vision_tower`) is a SigLIP-style ViT over patches the
processor has already cut and flattened: each crop of each image (a resized whole first,
then the overlapping high-resolution crops) is one row, `[crops, patches,
vision_hidden_size]`, its patch embedding a linear layer plus a learned position table,
its blocks pre-norm with an ungated MLP, and no final norm. The projector (`projector`, at
`model.multi_modal_projector`, Molmo2's adapter) joins the streams of the blocks named by
`vision_feature_layer`, pools each 2x2 window of patches with one cross-attention whose
query is the window's mean, and projects it to the text width with a gated MLP.
`Molmo2Model`'s forward adds the projected image onto the `<im_patch>` token embeddings
(`inputs_embeds[mask] + image_features`) and scatters that sum back, so
`image_features` is the sum, the stream block 0 receives at the image tokens.
"""

from transformers.models.molmo2.modeling_molmo2 import (
    Molmo2Attention,
    Molmo2DecoderLayer,
    Molmo2MLP,
    Molmo2Model,
    Molmo2VisionAttention,
    Molmo2VisionEncoderLayer,
    Molmo2VisionMLP,
    Molmo2VisionModel,
)

from nnterp.components import (
    Attention,
    EProperty,
    ImageScatter,
    Layer,
    Mlp,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import (
    SIGLIP_TOWER_RENAME,
    WRAPPED_TEXT_RENAME,
    ImageFeatures,
    _features_reason,
    image_scatter,
    scattered_argument,
)

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
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
    Molmo2DecoderLayer: Layer,
    Molmo2Attention: Attention,
    Molmo2MLP: Mlp,
    Molmo2VisionModel: Molmo2Vision,
    Molmo2VisionEncoderLayer: VisionLayer,
    Molmo2VisionAttention: VisionAttention,
    Molmo2VisionMLP: VisionMlp,
    Molmo2Model: ImageScatter,
}

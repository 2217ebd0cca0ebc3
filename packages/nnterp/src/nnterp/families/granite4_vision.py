"""Granite 4 Vision (`Granite4VisionForConditionalGeneration`): Granite's text model behind a SigLIP tower and window Q-Former projectors.

The text stack sits under `model.language_model` and is served with Granite 4 Vision's
text classes (`nnterp.families.granite4_vision_text`). The SigLIP (or CLIP) tower
(`vision`, at `model.vision_tower`) runs on each image's any-resolution crops (the
resized whole, then the tiles), one row of the tower's values per crop. No projected
image is scattered into the token embeddings: the wrapper zeroes the embeddings at the
image tokens, and the text model adds each projector's output to the image rows before
the text block `deepstack_layer_map` (the layerwise projectors, one per tapped tower
block, `projector[i]` at `model.layerwise_projectors`) or `spatial_target_layers` (the
four spatial projectors, one corner of each 2x2 patch group of `spatial_vision_layer`,
at `model.spatial_projectors`, no alias) sends it to. Each projector is a window
Q-Former over its tower block's stream (no final norm, so `tower_output` reaches no
projector); the wrapper unpads its tiles' grid and appends the learned `image_newline`
after each grid row, so the added tensor has more rows than a projector's output.

The tap entering before text block 0 is `image_features`: block 0 receives
`embedding_multiplier * 0 + image_features` at the image tokens, which is
`image_features` exactly, and an assignment replaces it. A checkpoint whose map sends
nothing to block 0 has no `image_features`: its image rows enter block 0 as zeros.
Every later tap is a text block's `deepstack_output`, so `image_features` is not the
whole image.
"""

from typing import Any

from transformers.models.clip.modeling_clip import CLIPMLP, CLIPAttention, CLIPEncoderLayer, CLIPVisionModel
from transformers.models.siglip.modeling_siglip import SiglipAttention, SiglipEncoderLayer, SiglipMLP, SiglipVisionModel

from nnterp.components import EProperty, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME, ImageFeatures
from nnterp.families import granite4_vision_text

RENAME = {
    **granite4_vision_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.layerwise_projectors": "projector",
    **SIGLIP_TOWER_RENAME,
    "post_layernorm": "norm",
}

#: Granite's logit lens, which divides by `logits_scaling`.
project_on_vocab = granite4_vision_text.project_on_vocab

#: Where every tap is read: the text model's tap call's inputs, from the root.
_TAP_INPUTS = f"/model.language_model.source.{granite4_vision_text.TapEProperty.CALL}.inputs"


def _no_first_tap(vision: Any) -> str | None:
    """Why no tap enters before text block 0, where `image_features` is read, or `None`."""
    reason = vision.no_images()
    if reason:
        return reason
    taps = granite4_vision_text.TapEProperty.tapped_blocks(vision.root)
    if 0 not in taps:
        return (
            f"no projector is added before text block 0 (the taps enter before blocks {taps}), so the image rows "
            "enter the text model as zeros; read layers[k].deepstack_output for the tap before block k+1"
        )
    return None


class Granite4Vision(Vision):
    """The tower; `image_features` is the tap that enters before text block 0, read at the text model's first tap."""

    @EProperty(
        _TAP_INPUTS,
        select=1,
        description="The projected image the text model adds to the zeroed image rows before block 0",
        unavailable=_no_first_tap,
    )
    def image_features(self, value) -> ImageFeatures:
        # The call takes the image rows flattened: zero plus the projected image, one vector per image token.
        return value.reshape(-1, self.root.hidden_size)

    @image_features.postprocess
    def image_features(self, value):
        return value.reshape(-1)


ENVOYS = {
    **granite4_vision_text.ENVOYS,
    SiglipVisionModel: Granite4Vision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    CLIPVisionModel: Granite4Vision,
    CLIPEncoderLayer: VisionLayer,
    CLIPAttention: VisionAttention,
    CLIPMLP: VisionMlp,
}

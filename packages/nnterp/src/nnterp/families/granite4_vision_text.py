"""Granite 4 Vision's text model (`Granite4VisionTextModel`), served on the `Granite4VisionForConditionalGeneration` wrapper.

`h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * mlp(post_attention_layernorm(h))`.

Granite's block, attention and MLP (see `nnterp.families.granite`): each contribution
is the scaled product the block adds, the scores are scaled by `attention_multiplier`,
and the head's output is divided by `logits_scaling`, which `project_on_vocab` does too.

The wrapper holds the text model under `model.language_model` and a SigLIP (or CLIP)
tower under `model.vision_tower` (`vision`), run on each image's any-resolution crops
(the resized whole, then the tiles), one row of the tower's values per crop. No
projected image is scattered into the token embeddings: the wrapper zeroes the
embeddings at the image tokens, and the text model adds each projector's output to the
image rows before the text block `deepstack_layer_map` (the layerwise projectors, one
per tapped tower block, `projector[i]` at `model.layerwise_projectors`) or
`spatial_target_layers` (the four spatial projectors, one corner of each 2x2 patch
group of `spatial_vision_layer`, at `model.spatial_projectors`, no alias) sends it to.
Each projector is a window Q-Former over its tower block's stream (no final norm, so
`tower_output` reaches no projector); the wrapper unpads its tiles' grid and appends
the learned `image_newline` after each grid row, so the added tensor has more rows
than a projector's output.

The tap entering before text block 0 is `image_features`: block 0 receives
`embedding_multiplier * 0 + image_features` at the image tokens, which is
`image_features` exactly, and an assignment replaces it. A checkpoint whose map sends
nothing to block 0 has no `image_features`: its image rows enter block 0 as zeros.
Every later tap, before block k+1, is `layers[k].deepstack_output`, the stream after
block k with that tap added at the image rows, as block k+1 receives it (Qwen3-VL's
name; see `nnterp.families.qwen3_vl_text`), so `image_features` is not the whole image.
All taps are one `masked_scatter` call of the text model's loop, read at the
occurrence of their block; the text model's forward is instrumented at build
(`TextModel`). A text-only load has no tap.
"""

from typing import Any

from transformers.models.clip.modeling_clip import CLIPMLP, CLIPAttention, CLIPEncoderLayer, CLIPVisionModel
from transformers.models.granite4_vision.modeling_granite4_vision import (
    Granite4VisionTextAttention,
    Granite4VisionTextDecoderLayer,
    Granite4VisionTextMLP,
    Granite4VisionTextModel,
)
from transformers.models.siglip.modeling_siglip import SiglipAttention, SiglipEncoderLayer, SiglipMLP, SiglipVisionModel

from nnterp.components import EProperty, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.deepstack import DeepstackTextModel, block_index
from nnterp.components.layer import Residual
from nnterp.components.recurrent import pinned
from nnterp.components.vision import SIGLIP_TOWER_RENAME, WRAPPED_TEXT_RENAME, ImageFeatures
from nnterp.families import granite
from nnterp.families.granite import project_on_vocab

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp", "project_on_vocab"]

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.layerwise_projectors": "projector",
    **SIGLIP_TOWER_RENAME,
    "post_layernorm": "norm",
}

#: The text model's one call that adds a projector's output to the image rows, once per tapped block.
_TAP_CALL = "hidden_states_masked_scatter_0"
#: Where every tap is read: the call's inputs and output, from the root.
_TAP_INPUTS = f"/model.language_model.source.{_TAP_CALL}.inputs"


def _tapped_blocks(root: Any) -> list[int]:
    """The text blocks a tap enters before, in the order the text model's loop adds them."""
    config = root._module.config
    targets = {layer for _, layer in config.deepstack_layer_map or ()} | set(config.spatial_target_layers or ())
    return sorted(layer for layer in targets if 0 <= layer < config.get_text_config().num_hidden_layers)


def _no_images(envoy: Any) -> str | None:
    vision = envoy.root.__dict__.get("vision")
    return vision.no_images() if vision is not None else "this load has no vision tower"


def _no_first_tap(vision: Any) -> str | None:
    """Why no tap enters before text block 0, where `image_features` is read, or `None`."""
    reason = vision.no_images()
    if reason:
        return reason
    taps = _tapped_blocks(vision.root)
    if 0 not in taps:
        return (
            f"no projector is added before text block 0 (the taps enter before blocks {taps}), so the image rows "
            "enter the text model as zeros; read layers[k].deepstack_output for the tap before block k+1"
        )
    return None


def _no_tap(layer: Any) -> str | None:
    """Why no tap is added after this block, or `None`."""
    reason = _no_images(layer)
    if reason:
        return reason
    taps = _tapped_blocks(layer.root)
    if block_index(layer) + 1 not in taps:
        return f"no deepstack tap follows this block: the taps enter before text blocks {taps}"
    return None


class TapEProperty(EProperty):
    """A value of the text model's tap call, pinned to the occurrence that enters before the host's next block."""

    def _occurrence(self, obj: Any) -> int | None:
        return _tapped_blocks(obj.root).index(block_index(obj) + 1) or None

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        self._check(obj)
        with pinned(self._occurrence(obj)):
            return super().__get__(obj, owner)

    def __set__(self, obj: Any, value: Any) -> None:
        self._check(obj)
        with pinned(self._occurrence(obj)):
            super().__set__(obj, value)


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


class Layer(granite.Layer):
    """Granite's block; both contributions scaled by `residual_multiplier`, plus the stream after its deepstack tap."""

    @TapEProperty(
        f"../../source.{_TAP_CALL}.output",
        description="The stream after this block with its tap added at the image rows, as the next block receives it",
        unavailable=_no_tap,
    )
    def deepstack_output(self, value) -> Residual:
        return value


class Attention(granite.Attention):
    """Granite's attention; the shared eager interface at `attention_multiplier`, its output scaled by the block."""


class Mlp(granite.Mlp):
    """Granite's gated MLP; its output scaled by the block, its neurons unscaled."""


ENVOYS = {
    Granite4VisionTextModel: DeepstackTextModel,
    Granite4VisionTextDecoderLayer: Layer,
    Granite4VisionTextAttention: Attention,
    Granite4VisionTextMLP: Mlp,
    SiglipVisionModel: Granite4Vision,
    SiglipEncoderLayer: VisionLayer,
    SiglipAttention: VisionAttention,
    SiglipMLP: VisionMlp,
    CLIPVisionModel: Granite4Vision,
    CLIPEncoderLayer: VisionLayer,
    CLIPAttention: VisionAttention,
    CLIPMLP: VisionMlp,
}

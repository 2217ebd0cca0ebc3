"""Granite 4 Vision's text model (`Granite4VisionTextModel`): Granite's block, with projector taps added before blocks.

`h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * mlp(post_attention_layernorm(h))`.

Granite's block, attention and MLP (see `nnterp.families.granite`): each contribution
is the scaled product the block adds, the scores are scaled by `attention_multiplier`,
and the head's output is divided by `logits_scaling`, which `project_on_vocab` does too.

The text model adds a projector's output to the image rows before each text block the
wrapper's config names (`deepstack_layer_map`, `spatial_target_layers`), all in one
`masked_scatter` call of its loop (`TapEProperty.CALL`), read at the occurrence of
their block; its forward is instrumented at build (`DeepstackTextModel`). A tap before
block k+1 is `layers[k].deepstack_output`, the stream after block k with that tap added
at the image rows, as block k+1 receives it (Qwen3-VL's name; see
`nnterp.families.qwen3_vl_text`). A text-only load has no tap.

The Granite 4 Vision wrapper (`granite4_vision`) is served by `nnterp.families.granite4_vision`.
"""

from typing import Any

from transformers.models.granite4_vision.modeling_granite4_vision import (
    Granite4VisionTextAttention,
    Granite4VisionTextDecoderLayer,
    Granite4VisionTextMLP,
    Granite4VisionTextModel,
)

from nnterp.components import EProperty, ScaledAttention, ScaledMlp
from nnterp.components.deepstack import DeepstackTextModel, block_index
from nnterp.components.layer import Residual
from nnterp.components.recurrent import pinned
from nnterp.families import granite
from nnterp.families.granite import project_on_vocab

__all__ = ["ENVOYS", "RENAME", "Layer", "TapEProperty", "project_on_vocab"]

#: The blocks carry the standard names; the wrapper's module names where the text model sits.
RENAME = {}


def _no_images(envoy: Any) -> str | None:
    vision = envoy.root.__dict__.get("vision")
    return vision.no_images() if vision is not None else "this load has no vision tower"


class TapEProperty(EProperty):
    """A value of the text model's tap call, pinned to the occurrence that enters before the host's next block."""

    #: The text model's one call that adds a projector's output to the image rows, once per tapped block.
    CALL = "hidden_states_masked_scatter_0"

    @staticmethod
    def tapped_blocks(root: Any) -> list[int]:
        """The text blocks a tap enters before, in the order the text model's loop adds them."""
        config = root._module.config
        targets = {layer for _, layer in config.deepstack_layer_map or ()} | set(config.spatial_target_layers or ())
        return sorted(layer for layer in targets if 0 <= layer < config.get_text_config().num_hidden_layers)

    def _occurrence(self, obj: Any) -> int | None:
        return self.tapped_blocks(obj.root).index(block_index(obj) + 1) or None

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


def _no_tap(layer: Any) -> str | None:
    """Why no tap is added after this block, or `None`."""
    reason = _no_images(layer)
    if reason:
        return reason
    taps = TapEProperty.tapped_blocks(layer.root)
    if block_index(layer) + 1 not in taps:
        return f"no deepstack tap follows this block: the taps enter before text blocks {taps}"
    return None


class Layer(granite.Layer):
    """Granite's block; both contributions scaled by `residual_multiplier`, plus the stream after its deepstack tap."""

    @TapEProperty(
        f"../../source.{TapEProperty.CALL}.output",
        description="The stream after this block with its tap added at the image rows, as the next block receives it",
        unavailable=_no_tap,
    )
    def deepstack_output(self, value) -> Residual:
        return value


ENVOYS = {
    Granite4VisionTextModel: DeepstackTextModel,
    Granite4VisionTextDecoderLayer: Layer,
    Granite4VisionTextAttention: ScaledAttention,
    Granite4VisionTextMLP: ScaledMlp,
}

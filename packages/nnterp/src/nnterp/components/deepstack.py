"""DeepStack: tower blocks whose merged outputs the text model adds to the image rows after early text blocks.

Qwen3-VL's text model calls `_deepstack_process` once per tapped block inside its
loop, after text block k, so block k+1 receives `layers[k].deepstack_output`, not
`layers[k].layer_output`. A family whose text model does this maps its text model to
`DeepstackTextModel` (its forward is instrumented at build, since the value is read
inside it) and gives its block class the `DeepstackTap` mixin.
"""

from __future__ import annotations

from typing import Any

from .eproperty import EProperty
from .layer import Layer, Residual
from .recurrent import pinned
from .standard import Standard

#: The text model's one call that adds a tower tap to the stream, once per tapped block.
DEEPSTACK_CALL = "self__deepstack_process_0"


def block_index(layer: Any) -> int:
    """The index of the text block `layer` among `model.layers`."""
    return int(layer.path.rsplit(".", 1)[-1])


def no_deepstack(layer: Any) -> str | None:
    """Why no tower tap is added after this block: no image reaches the model, or the block is past the taps."""
    vision = layer.root.__dict__.get("vision")
    reason = vision.no_images() if vision is not None else "this load has no vision tower"
    if reason:
        return reason
    taps = len(vision.tower_config.deepstack_visual_indexes)
    if block_index(layer) >= taps:
        return (
            f"no deepstack tap follows this block: the tower's {taps} taps are added after text blocks 0 to {taps - 1}"
        )
    return None


class DeepstackEProperty(EProperty):
    """A value of the text model's `_deepstack_process` call, pinned to the host block's occurrence of it.

    The call runs once per tapped block inside the text model's loop, so occurrence k
    is the one after block k; reads and writes pin the worker to it.
    """

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        self._check(obj)
        with pinned(block_index(obj) or None):
            return super().__get__(obj, owner)

    def __set__(self, obj: Any, value: Any) -> None:
        self._check(obj)
        with pinned(block_index(obj) or None):
            super().__set__(obj, value)


class DeepstackTextModel(Standard):
    """The text model; its forward is instrumented at build, since `deepstack_output` is read inside it."""

    sourced = True


class DeepstackTap:
    """A block mixin: the stream after the block's tower tap, as the next block receives it."""

    @DeepstackEProperty(
        f"../../source.{DEEPSTACK_CALL}.output",
        description="The stream after this block with its tower tap added at the image rows, as the next block "
        "receives it",
        unavailable=no_deepstack,
    )
    def deepstack_output(self, value) -> Residual:
        return value


class DeepstackLayer(DeepstackTap, Layer):
    """A pre-norm block (the base holds) followed by a tower tap."""

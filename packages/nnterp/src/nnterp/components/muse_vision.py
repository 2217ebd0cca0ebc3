"""The Muse ViT (Muse Glimmer, Muse Spark): packed MoonViT-style blocks, a final norm, then a pixel shuffle.

Both wrappers hold the tower at `model.vision_tower` and a two-layer adapter, the
projector, at `model.vision_adapter` (`MUSE_WRAPPER_RENAME`). The blocks run on every
image's patches packed in one row, their attention the MoonViT's
(`MoonVisionAttention`, one interface call per image or window); the final norm
(`ln_post`, the tower's `norm`) ends `tower_output`, before a pixel shuffle folds each
2x2 group of patches into one row.
"""

from typing import Any

from .eproperty import EProperty
from .vision import QWEN_TOWER_RENAME, WRAPPED_TEXT_RENAME, Patches, QwenVision, as_native, as_patches, no_tower_run

#: A Muse wrapper's layout: the text model under `model.language_model`, the tower at
#: `model.vision_tower` (its inner names keyed relative to it, its blocks at `layers`
#: already) and the adapter as projector.
MUSE_WRAPPER_RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.vision_adapter": "projector",
    **QWEN_TOWER_RENAME,
    "patch_embedder": "patch_embed",
    "ln_post": "norm",
}


class MuseVision(QwenVision):
    """The Muse ViT: packed patches of every image in one row, a final norm before the pixel shuffle.

    `tower_output` is the final norm's output, in the patches' own order, before the pixel
    shuffle folds each 2x2 group into one row of `out_hidden_size`.
    """

    @EProperty(
        "norm.output",
        description="The last block's stream after the tower's final norm, before any pooling or projection",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return as_patches(value)

    @tower_output.postprocess
    def tower_output(self, value: Any) -> Any:
        return as_native(self, value)


__all__ = ["MUSE_WRAPPER_RENAME", "MuseVision"]

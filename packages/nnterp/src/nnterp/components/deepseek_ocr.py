"""DeepSeek-OCR 2's two-stage tower, which Unlimited-OCR's builds on: SAM's grid as the patch rows of an encoder.

SAM's windowed ViT (`sam_encoder`, no alias of its own; its blocks run on a
`[images, rows, columns, width]` grid) turns the image into a grid that its neck and
two stride-2 convolutions shrink 4x by side; that grid's rows are `patch_embeddings`.
An encoder (`vision_encoder`) runs on those rows: the encoder's sizes are the tower's,
and a family keys its blocks and, where it has one, its final norm relative to the
tower.
"""

from __future__ import annotations

from nnsight.intervention.interleaver import Mediator

from .eproperty import EProperty
from .vision import Patches, Vision, no_tower_run


class DeepseekOcrVision(Vision):
    """DeepSeek-OCR 2's tower: SAM's grid as the patch rows of a Qwen2-block encoder that appends learned queries.

    The sizes are the encoder's (`encoder_config`). `patch_size` is the side, in pixels,
    of the square one patch row covers: SAM's patch times the downsampling of its two
    stride-2 convolutions. `image_size` is SAM's, the global view's side; a large
    image's local tiles run at the processor's `tile_size`.
    """

    @property
    def tower_config(self):
        return self._module.config.encoder_config

    @property
    def patch_size(self) -> int:
        sam = self._module.sam_encoder
        stride = sam.proj.conv1.stride[0] * sam.proj.conv2.stride[0]
        return sam.config.patch_size * stride

    @property
    def image_size(self) -> int:
        return self._module.config.sam_config.image_size

    @EProperty(
        "sam_encoder.output",
        description="SAM's downsampled grid, one row per patch, as the encoder takes it before the queries",
        unavailable=no_tower_run,
    )
    def patch_embeddings(self, value) -> Patches:
        return value.last_hidden_state.flatten(2).transpose(1, 2)

    @patch_embeddings.postprocess
    def patch_embeddings(self, value):
        output = Mediator.value(f"{self.sam_encoder.path}.output")
        grid = output.last_hidden_state
        output["last_hidden_state"] = value.transpose(1, 2).reshape(grid.shape)
        return output

    @EProperty(
        "norm.output",
        description="The last block's stream after the encoder's final norm, patch rows then query rows",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return value

    @tower_output.postprocess
    def tower_output(self, value):
        return value


__all__ = ["DeepseekOcrVision"]

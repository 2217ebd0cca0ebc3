"""The Kosmos towers' way in: the image overwrites the token embeddings where a position mask marks them.

Kosmos-2's and Kosmos-2.5's wrappers hand their text stack (`text_model.model`) the
projector's output as `image_embeds` and the processor's `image_embeds_position_mask`;
the stack overwrites the marked token embeddings with those rows. There is no image
token id, so `Kosmos2Vision` reads the mask and the image embeddings where the stack is
called. Kosmos-2.5's tower subclasses it (`nnterp.families.kosmos_2_5`).
"""

from __future__ import annotations

import torch
from nnsight.intervention.interleaver import Mediator

from .eproperty import EProperty, pick
from .vision import ImageFeatures, ImageTokenMask, Patches, Vision, no_tower_run

#: Where the wrapper's text stack is called with the ids, the image embeddings and the mask, from the root.
_TEXT_INPUTS = "/text_model.model.inputs"


def _text_inputs(value) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
    """(input ids or embeddings, image embeddings, position mask) of a call of the text stack."""
    args, kwargs = value
    ids = kwargs.get("input_ids", args[0] if args else None)
    if ids is None:
        ids = kwargs["inputs_embeds"][..., 0]
    return ids, kwargs.get("image_embeds"), kwargs.get("image_embeds_position_mask")


class Kosmos2Vision(Vision):
    """Kosmos-2's CLIP tower: the image enters the text at `image_embeds_position_mask`, as the projector's output."""

    @EProperty(
        _TEXT_INPUTS,
        description="Which token positions the image embeddings overwrite: the image_embeds_position_mask input",
        unavailable=no_tower_run,
    )
    def image_token_mask(self, value) -> ImageTokenMask:
        ids, embeds, mask = _text_inputs(value)
        # The text stack writes no image on a call without image embeddings (a decode step under generate).
        if embeds is None or mask is None:
            return torch.zeros(ids.shape, dtype=torch.bool, device=ids.device)
        return mask.to(torch.bool)

    @image_token_mask.postprocess
    def image_token_mask(self, value):
        raise AttributeError(
            "image_token_mask is read off the inputs and cannot be assigned; assign image_embeds_position_mask"
        )

    @EProperty(
        "output",
        description="The last block's stream, before the post_layernorm and unit scaling the wrapper applies",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return value.last_hidden_state

    @tower_output.postprocess
    def tower_output(self, value):
        output = Mediator.value(f"{self.path}.output")
        output["last_hidden_state"] = value.reshape(output.last_hidden_state.shape)
        return output

    @EProperty(
        _TEXT_INPUTS,
        select="image_embeds",
        description="The projected image the text stack writes over the token embeddings at the masked positions",
        unavailable=no_tower_run,
    )
    def image_features(self, value) -> ImageFeatures:
        return value.reshape(-1, value.shape[-1])

    @image_features.postprocess
    def image_features(self, value):
        location, attribute = type(self).image_features._resolve(self, _TEXT_INPUTS)
        return value.reshape(pick(attribute, Mediator.value(location), "image_embeds").shape)


__all__ = ["Kosmos2Vision"]

"""The Inkling 2 ViT, which the Inkling 2 and Inkling 2 Loop wrappers both run as their tower.

The tower cuts each image into patches, embeds each with a linear map plus a
bilinearly resampled learned position grid, puts a CLS row before each image's patches
and runs every image in one packed row (`[patches, width]`, served as
`[1, patches, width]`), turned by a 2-D rotary embedding. Its blocks norm before each
sublayer and scale each sublayer's output per channel
(`h = x + lambda_1 * self_attn(layernorm_before(x)); out = h + lambda_2 * mlp(layernorm_after(h))`),
so `attention_output` and `mlp_output` are the scaled products; the attention is called
once per image, so its pattern and scores are unavailable (`PER_IMAGE`). The tower has
no final norm: `tower_output` is the last block's stream, CLS rows included. Its
`merger` (`projector`) drops the CLS rows, concatenates each 2x2 group of neighbouring
patches and projects it to the text width through a two-layer MLP, one image token per
group.
"""

from __future__ import annotations

from typing import Any

from .eproperty import EProperty
from .scaled import scaled_value
from .vision import (
    WRAPPED_TEXT_RENAME,
    Patches,
    QwenVisionAttention,
    Vision,
    VisionMlp,
    as_native,
    as_patches,
    no_tower_run,
    variable_resolution,
)

#: The Inkling 2 ViT's inner names, keyed relative to the tower.
INKLING2_TOWER_RENAME = {
    "embeddings.patch_embedding": "patch_embed",
    "layernorm_before": "input_layernorm",
    "layernorm_after": "post_attention_layernorm",
    "out_proj": "o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}

#: An Inkling 2-built wrapper (Inkling 2, Inkling 2 Loop): the text model under `model.language_model`,
#: the ViT at `model.vision_tower` and its merger as projector.
INKLING2_WRAPPER_RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.vision_tower.merger": "projector",
    **INKLING2_TOWER_RENAME,
}


class Inkling2Vision(Vision):
    """The Inkling 2 ViT: every image's CLS row and patches packed in one row, at the image's own size."""

    PACKED = True
    ONE_ROW = True
    image_size = property(variable_resolution)


def _lambda_1(envoy: Any) -> Any:
    return envoy.parent._module.lambda_1


def _lambda_2(envoy: Any) -> Any:
    return envoy.parent._module.lambda_2


def _packed_scaled_output(description: str, multiplier: Any) -> EProperty:
    """A packed tower block's contribution, `multiplier(envoy) * output`, served as `[1, patches, width]`.

    A `scaled_value` that serves the product with a packed tower's images axis and drops
    that axis before it compares an edit with the module's own 2-D output, so an unedited
    read hands the output back untouched; an edit or an assignment is divided by the
    multiplier before the block scales it again.
    """
    contribution = scaled_value(
        "output",
        multiplier,
        description,
        layout=Patches,
        unavailable=no_tower_run,
        serve=lambda envoy, product: as_patches(product),
        native=as_native,
    )

    # Already a tower value: `TowerValues` leaves it as declared.
    contribution.on_tower = True
    return contribution


class Inkling2LayerScaledAttention(QwenVisionAttention):
    """The ViT's attention, called once per image; the block multiplies its output by `lambda_1` before the add."""

    attention_output = _packed_scaled_output(
        "What the attention adds to the patches' stream, after the block's lambda_1", multiplier=_lambda_1
    )


class Inkling2LayerScaledMlp(VisionMlp):
    """The ViT's ungated MLP; the block multiplies its output by `lambda_2` before the add."""

    mlp_output = _packed_scaled_output(
        "What the MLP adds to the patches' stream, after the block's lambda_2", multiplier=_lambda_2
    )


__all__ = [
    "INKLING2_TOWER_RENAME",
    "INKLING2_WRAPPER_RENAME",
    "Inkling2LayerScaledAttention",
    "Inkling2LayerScaledMlp",
    "Inkling2Vision",
]

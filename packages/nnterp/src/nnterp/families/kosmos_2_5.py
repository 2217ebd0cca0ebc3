"""Kosmos-2.5 (`Kosmos2_5ForConditionalGeneration`): its own decoder behind a Pix2Struct-style tower and a resampler.

The wrapper holds the text decoder as `text_model` (the stack at `text_model.model`),
served with `nnterp.families.kosmos_2_5_text_model`'s classes, a Pix2Struct-style tower
(`vision`, `vision_model`) and the resampler (`projector`, `image_to_text_projection`):
a linear, then the config's `latent_query_num` learned queries attending to the
projected patches and themselves. The tower takes flattened patches, each row its
patch's row and column ids then its pixels: the processor resizes each image to fill
`max_patches` patches, so the tower has no fixed resolution (`image_size` is
unavailable) and its patch side is read off the flattened width. Its blocks are
pre-norm with T5-style RMS norms (`pre_attention_layer_norm`, `pre_mlp_layer_norm`),
attention projections `query`, `key`, `value` and `output` (served by nnsight as
`E_output`, aliased `o_proj`), and a gated MLP (`wi_0` the gate, `wi_1` the up
projection, `wo` the down projection); its final `layernorm` norms every patch inside
the tower, so `tower_output` is the tower's own output, which the wrapper scales to
unit length before the projector.

The processor writes `<image>`, one placeholder per latent query and `</image>` after
the bos token, and marks them in `image_embeds_position_mask`: 1 at the placeholders,
-1 at both tags, 0 elsewhere. The text stack overwrites the token embeddings at the 1s
with the projector's output (`image_embeds`), before the scale, and adds segment
embedding 1 at every nonzero entry, tags included, and 0 elsewhere, so the scatter
happens inside the text stack. `vision.image_token_mask` is the mask's 1s, read off the
wrapper's inputs and so first in a trace, and `vision.image_features` the image
embeddings, read where the stack is called (`Kosmos2_5Vision`). The wrapper's forward
runs on every step of a generate, and a decode step passes neither image nor mask, so
its mask is all false. A text-only call of the wrapper (no `flattened_patches`) runs the
decoder with no image and segment 0 everywhere.
"""

import math

import torch
from transformers.models.kosmos2_5.modeling_kosmos2_5 import (
    Kosmos2_5VisionAttention,
    Kosmos2_5VisionLayer,
    Kosmos2_5VisionMlp,
    Kosmos2_5VisionModel,
)

from nnterp.components import EProperty, Unavailable, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.kosmos_vision import Kosmos2Vision
from nnterp.components.names import not_available
from nnterp.components.vision import ImageTokenMask, no_tower_run
from nnterp.families import kosmos_2_5_text_model

RENAME = {
    **kosmos_2_5_text_model.RENAME,
    "text_model.model.embed_tokens": "embed_tokens",
    "text_model.model.layers": "layers",
    "text_model.model.layer_norm": "norm",
    "text_model.lm_head": "lm_head",
    "vision_model": "vision",
    "image_to_text_projection": "projector",
    # The tower, keyed from `vision_model`: multi-component keys and names no text module has.
    "embeddings.patch_projection": "patch_embed",
    "encoder.layer": "layers",
    "layernorm": "norm",
    "pre_attention_layer_norm": "input_layernorm",
    "pre_mlp_layer_norm": "post_attention_layernorm",
    "attention": "self_attn",
    "query": "q_proj",
    "key": "k_proj",
    "value": "v_proj",
    # nnsight serves a child named `output` as `E_output`, since `.output` is every envoy's output; the
    # key is spelled from the block, whose `attention` child is what nnterp's rename pruning looks for.
    "attention.E_output": "attention.o_proj",
    "wi_0": "gate_proj",
    "wi_1": "up_proj",
    "wo": "down_proj",
    "act": "act_fn",
}

#: The feed-forward width, the text config's `ffn_dim`, read as on the text model alone.
intermediate_size = kosmos_2_5_text_model.intermediate_size

#: The `image_embeds_position_mask` entry of a position the text stack writes an image row at.
_IMAGE_ROW = 1


class Kosmos2_5Vision(Kosmos2Vision):
    """Kosmos-2.5's Pix2Struct-style tower: flattened patches at the image's own resolution, normed inside the tower.

    The image enters the text where `image_embeds_position_mask` is 1, as the
    projector's output: the mask is read off the wrapper's inputs, the image
    embeddings at the text stack's call, as on Kosmos-2.
    """

    @property
    def head_dim(self) -> int:
        """The width of one of the tower's heads, the tower config's own `head_dim`."""
        return self.tower_config.head_dim

    @property
    def patch_size(self) -> int:
        """The side of one patch, in pixels: a flattened patch holds its three channels' square of pixels."""
        side = math.isqrt(self.tower_config.patch_embed_hidden_size // 3)
        if 3 * side * side != self.tower_config.patch_embed_hidden_size:
            raise Unavailable(
                not_available(
                    self,
                    "patch_size",
                    f"the flattened patch width {self.tower_config.patch_embed_hidden_size} "
                    "is not three channels of a square patch",
                )
            )
        return side

    @property
    def image_size(self) -> int:
        """Always raises `Unavailable`: the processor resizes each image to fill its `max_patches` patches."""
        raise Unavailable(
            not_available(
                self,
                "image_size",
                "this tower takes images at their own resolution; "
                "the processor resizes each image to fill max_patches patches, and each patch's row and column "
                "ids are the first two entries of its flattened_patches row",
            )
        )

    @EProperty(
        "/inputs",
        description="Which token positions the image embeddings overwrite: where image_embeds_position_mask is 1",
        unavailable=no_tower_run,
    )
    def image_token_mask(self, value) -> ImageTokenMask:
        args, kwargs = value
        ids = kwargs.get("input_ids", args[0] if args else None)
        if ids is None:
            ids = kwargs["inputs_embeds"][..., 0]
        mask = kwargs.get("image_embeds_position_mask")
        image = kwargs.get("flattened_patches") is not None or kwargs.get("image_embeds") is not None
        # A call without an image writes none (a decode step under generate, which passes no mask either).
        if mask is None or not image:
            return torch.zeros(ids.shape, dtype=torch.bool, device=ids.device)
        # The tags around the placeholders are marked -1: they take the image's segment but keep their tokens.
        return mask == _IMAGE_ROW

    @image_token_mask.postprocess
    def image_token_mask(self, value):
        raise AttributeError(
            "image_token_mask is read off the inputs and cannot be assigned; assign image_embeds_position_mask"
        )

    # The tower norms every patch itself, so its output is the base's `tower_output`, not Kosmos-2's last block.
    tower_output = Vision.tower_output


ENVOYS = {
    **kosmos_2_5_text_model.ENVOYS,
    Kosmos2_5VisionModel: Kosmos2_5Vision,
    Kosmos2_5VisionLayer: VisionLayer,
    Kosmos2_5VisionAttention: VisionAttention,
    Kosmos2_5VisionMlp: VisionMlp,
}

"""Kosmos-2's text decoder (`Kosmos2TextForCausalLM`, model type `kosmos_2_text_model`) and the wrapper's CLIP tower.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
`mlp(y) = down_proj(ffn_layernorm(act_fn(up_proj(y))))`

A pre-LN block: `self_attn_layer_norm` is aliased `input_layernorm`,
`final_layer_norm` `post_attention_layernorm`, the feed-forward module `ffn` `mlp`
(`fc1` its `up_proj`, `fc2` its `down_proj`), and the decoder's final `layer_norm`
`norm`. The feed-forward path norms the activation (`ffn_layernorm`, over the
feed-forward width) before the down projection, inside the module, so `mlp_output`
is the module's output, the term the block adds, and `mlp_neurons` (what
`down_proj` sums) is the normed activation, not `mlp_activation`. The attention runs
the model's own eager function through the attention interface, then norms the
merged heads (`inner_attn_ln`) before the output projection, so `attention_premix`
is the normed merge and not the head outputs side by side. The embedding multiplies
the token embeddings by `sqrt(embed_dim)` (`scale_embedding`) and adds sinusoidal
positions counted from the pad id, so block 0's input is neither the token table's
rows nor their scaled copy.

The wrapper (`Kosmos2ForConditionalGeneration`, type `kosmos-2`) is served here, by
its text config's family: there is no tower class an older release lacks. It holds
this decoder as `text_model` (the stack at `text_model.model`), a CLIP-style tower
(`vision`, `vision_model`, its transformer at `vision_model.model`) and the
resampler (`projector`, `image_to_text_projection`): a linear, then the config's
`latent_query_num` learned queries (64 released) attending to the projected patches
and themselves. The wrapper norms
every row of the tower's last block with the tower's `post_layernorm` (which the
tower itself runs on the CLS row only) and scales each row to unit length before
the projector, so `tower_output` is the last block's stream and no module is the
tower's final norm. The processor writes one placeholder per latent query after
`<image>` and marks them in `image_embeds_position_mask`, an input of the wrapper's
forward, which hands it on to the text stack (`text_model.model`) with the projector's
output as `image_embeds`; the stack overwrites the masked token embeddings with
those rows before the scale and the positions are added. There is no image token id:
`vision.image_token_mask` is the mask and `vision.image_features` the image
embeddings, both read where the stack is called, so both are there on a generate's
first step too, whose wrapper forward never runs (the wrapper's `generate` calls the
tower and the text model's `generate` itself); a later step passes no image
embeddings, and the mask is all false. The wrapper's forward refuses a call without
an image ("You have to specify either `pixel_values` or `image_embeds`"), and no auto
class builds the text model alone (the default task builds the wrapper, with no
processor): a text-only model is `Kosmos2TextForCausalLM` loaded from the wrapper
checkpoint with `key_mapping={r"^text_model\\.": ""}` (the module's `_TEXT_KEY_MAPPING`).
"""

from __future__ import annotations

import torch
from nnsight.intervention.interleaver import Mediator
from transformers.models.kosmos2.modeling_kosmos2 import (
    Kosmos2TextBlock,
    Kosmos2TextFFN,
    Kosmos2VisionAttention,
    Kosmos2VisionEncoderLayer,
    Kosmos2VisionMLP,
    Kosmos2VisionModel,
    KosmosTextAttention,
)

from nnterp.components import (
    Attention,
    EProperty,
    Layer,
    Mlp,
    Neurons,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.attention import HeadOutputs
from nnterp.components.eproperty import pick
from nnterp.components.reasons import needs_child
from nnterp.components.vision import ImageFeatures, ImageTokenMask, Patches, no_tower_run

RENAME = {
    # Kosmos2TextForCausalLM, the text model alone.
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.layer_norm": "norm",
    # The wrapper.
    "text_model.model.embed_tokens": "embed_tokens",
    "text_model.model.layers": "layers",
    "text_model.model.layer_norm": "norm",
    "text_model.lm_head": "lm_head",
    "vision_model": "vision",
    "image_to_text_projection": "projector",
    # The text block.
    "self_attn_layer_norm": "input_layernorm",
    "final_layer_norm": "post_attention_layernorm",
    "ffn": "mlp",
    "fc1": "up_proj",
    # The tower, keyed from `vision_model`, whose transformer sits under `model`.
    "model.embeddings.patch_embedding": "patch_embed",
    "model.encoder.layers": "layers",
    "layer_norm1": "input_layernorm",
    "layer_norm2": "post_attention_layernorm",
    # Both.
    "out_proj": "o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}

#: Where the wrapper's text stack is called with the ids, the image embeddings and the mask, from the root.
_TEXT_INPUTS = "/text_model.model.inputs"

#: The `key_mapping` that loads a wrapper checkpoint's text weights into `Kosmos2TextForCausalLM`.
_TEXT_KEY_MAPPING = {r"^text_model\.": ""}


class Attention(Attention):
    """Kosmos-2's text attention: the interface, then `inner_attn_ln` over the merged heads, then `o_proj`."""

    @EProperty(
        "o_proj.input",
        description="The merged heads after the attention's inner norm, as the output projection takes them",
        unavailable=needs_child("o_proj", "attention"),
    )
    def attention_premix(self, value) -> HeadOutputs:
        return value.unflatten(-1, (self.num_heads, -1))

    @attention_premix.postprocess
    def attention_premix(self, value):
        return value.flatten(-2)


class Mlp(Mlp):
    """Kosmos-2's feed-forward path: `up_proj`, GELU, `ffn_layernorm`, `down_proj`; its output is the block's term."""

    @EProperty(
        "down_proj.input",
        description="What the down projection sums, one value per neuron: the activation after ffn_layernorm",
        unavailable=needs_child("down_proj", "mlp"),
    )
    def mlp_neurons(self, value) -> Neurons:
        return value


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


def intermediate_size(model) -> int:
    """The feed-forward width, the text config's `ffn_dim`."""
    return model.config.get_text_config().ffn_dim


ENVOYS = {
    Kosmos2TextBlock: Layer,
    KosmosTextAttention: Attention,
    Kosmos2TextFFN: Mlp,
    Kosmos2VisionModel: Kosmos2Vision,
    Kosmos2VisionEncoderLayer: VisionLayer,
    Kosmos2VisionAttention: VisionAttention,
    Kosmos2VisionMLP: VisionMlp,
}

"""Kosmos-2 (`Kosmos2ForConditionalGeneration`): its own text decoder behind a CLIP-style tower and a resampler.

The wrapper holds the text decoder as `text_model` (the stack at `text_model.model`),
served with `nnterp.families.kosmos_2_text_model`'s classes, a CLIP-style tower
(`vision`, `vision_model`, its transformer at `vision_model.model`) and the resampler
(`projector`, `image_to_text_projection`): a linear, then the config's
`latent_query_num` learned queries (64 released) attending to the projected patches
and themselves. The wrapper norms every row of the tower's last block with the tower's
`post_layernorm` (which the tower itself runs on the CLS row only) and scales each row
to unit length before the projector, so `tower_output` is the last block's stream and
no module is the tower's final norm.

The processor writes one placeholder per latent query after `<image>` and marks them in
`image_embeds_position_mask`, an input of the wrapper's forward, which hands it on to
the text stack (`text_model.model`) with the projector's output as `image_embeds`; the
stack overwrites the masked token embeddings with those rows before the scale and the
positions are added, so the scatter happens inside the text stack. There is no image
token id: `vision.image_token_mask` is the mask and `vision.image_features` the image
embeddings, both read where the stack is called (`Kosmos2Vision`), so both are there on
a generate's first step too, whose wrapper forward never runs (the wrapper's `generate`
calls the tower and the text model's `generate` itself); a later step passes no image
embeddings, and the mask is all false. The wrapper's forward refuses a call without an
image ("You have to specify either `pixel_values` or `image_embeds`").
"""

from transformers.models.kosmos2.modeling_kosmos2 import (
    Kosmos2VisionAttention,
    Kosmos2VisionEncoderLayer,
    Kosmos2VisionMLP,
    Kosmos2VisionModel,
)

from nnterp.components import VisionAttention, VisionLayer, VisionMlp
from nnterp.components.kosmos_vision import Kosmos2Vision
from nnterp.families import kosmos_2_text_model

RENAME = {
    **kosmos_2_text_model.RENAME,
    "text_model.model.embed_tokens": "embed_tokens",
    "text_model.model.layers": "layers",
    "text_model.model.layer_norm": "norm",
    "text_model.lm_head": "lm_head",
    "vision_model": "vision",
    "image_to_text_projection": "projector",
    # The tower, keyed from `vision_model`, whose transformer sits under `model`.
    "model.embeddings.patch_embedding": "patch_embed",
    "model.encoder.layers": "layers",
    "layer_norm1": "input_layernorm",
    "layer_norm2": "post_attention_layernorm",
}

#: The feed-forward width, the text config's `ffn_dim`, read as on the text model alone.
intermediate_size = kosmos_2_text_model.intermediate_size

ENVOYS = {
    **kosmos_2_text_model.ENVOYS,
    Kosmos2VisionModel: Kosmos2Vision,
    Kosmos2VisionEncoderLayer: VisionLayer,
    Kosmos2VisionAttention: VisionAttention,
    Kosmos2VisionMLP: VisionMlp,
}

"""Unlimited-OCR's text model (`UnlimitedOcrTextModel`), served on the `UnlimitedOcrForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

DeepSeek-OCR 2's text model (`deepseek_ocr2_text`): plain multi-head attention under
a cos/sin rotary embedding, and `config.mlp_layer_types` saying which blocks carry a
dense gated MLP and which DeepSeek-V2's mixture (a softmax router, `gate`, whose
chosen scores times `routed_scaling_factor` are `expert_weights`, and shared experts
added after the routed ones). Its blocks' `layer_types` are
`"reference_sliding_attention"`: a token attends to every prompt token and to the
last `sliding_window` generated ones, so within one forward pass the mask is causal.

The type has no causal-LM class: the default task builds the wrapper with no
processor. The wrapper holds the text model under `model.language_model` and its
tower, `UnlimitedOcrVisionModel` (`vision`, at `model.vision_tower`), in two stages.
SAM's windowed ViT (`sam_encoder`, no alias of its own) turns the image into a grid
that its neck and two stride-2 convolutions shrink 4x by side; that grid's rows are
`patch_embeddings`. A CLIP encoder (`vision_encoder`: CLIP's blocks, `vision.layers`,
with no final norm) takes those rows after a learned class row, adds a learned
position grid (resampled where the grid differs from it) and norms them
(`pre_layrnorm`); `tower_output` is its last block's stream, the class row then the
patch rows. The tower returns each patch's encoder row beside its SAM row (the class
row dropped, `[patches, encoder width + SAM width]`), and the projector (`projector`,
`model.multi_modal_projector`, one linear) maps them to the text width. The wrapper
then writes, per image, the projected grid of its local tiles (the processor's crops
of a large image, one more tower run on all tiles, laid out as one grid), then of its
global view, each grid row followed by the learned `image_newline`, then the learned
`view_separator`, and scatters them in `UnlimitedOcrModel`.
"""

from nnsight.intervention.interleaver import Mediator
from transformers.models.unlimited_ocr.modeling_unlimited_ocr import (
    UnlimitedOcrAttention,
    UnlimitedOcrEncoderLayer,
    UnlimitedOcrMLP,
    UnlimitedOcrModel,
    UnlimitedOcrTextAttention,
    UnlimitedOcrTextDecoderLayer,
    UnlimitedOcrTextMLP,
    UnlimitedOcrTextMoe,
    UnlimitedOcrVisionModel,
)

from nnterp.components import EProperty, ImageScatter, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import WRAPPED_TEXT_RENAME, Patches, no_tower_run
from nnterp.families import deepseek_ocr2_text

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    # The CLIP encoder's names, keyed relative to the tower; SAM's blocks share the norms' names.
    "vision_encoder.encoder.layers": "layers",
    "layer_norm1": "input_layernorm",
    "layer_norm2": "post_attention_layernorm",
    "out_proj": "o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}


class OcrVision(deepseek_ocr2_text.OcrVision):
    """Unlimited-OCR's tower: SAM's downsampled grid as the patch rows of a CLIP encoder with a class row.

    The sizes are the CLIP encoder's (`encoder_config`). `patch_size` is the side, in
    pixels, of the square one patch row covers: SAM's patch times the downsampling of
    its two stride-2 convolutions. `image_size` is SAM's, the global view's side; a
    large image's local tiles run at the processor's `tile_size`.
    """

    @EProperty(
        "vision_encoder.output",
        description="The CLIP encoder's last block's stream, the class row then one row per patch; it has no final norm",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return value.last_hidden_state

    @tower_output.postprocess
    def tower_output(self, value):
        output = Mediator.value(f"{self.vision_encoder.path}.output")
        output["last_hidden_state"] = value.reshape(output.last_hidden_state.shape)
        return output


ENVOYS = {
    UnlimitedOcrTextDecoderLayer: deepseek_ocr2_text.Layer,
    UnlimitedOcrTextAttention: deepseek_ocr2_text.Attention,
    UnlimitedOcrTextMLP: deepseek_ocr2_text.Mlp,
    UnlimitedOcrTextMoe: deepseek_ocr2_text.Moe,
    UnlimitedOcrVisionModel: OcrVision,
    UnlimitedOcrEncoderLayer: VisionLayer,
    UnlimitedOcrAttention: VisionAttention,
    UnlimitedOcrMLP: VisionMlp,
    UnlimitedOcrModel: ImageScatter,
}

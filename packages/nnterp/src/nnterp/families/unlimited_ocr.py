"""Unlimited-OCR (`UnlimitedOcrForConditionalGeneration`): its mixture text model behind SAM and a CLIP encoder.

The text stack sits under `model.language_model` and is served with Unlimited-OCR's
text classes (`nnterp.families.unlimited_ocr_text`). The tower,
`UnlimitedOcrVisionModel` (`vision`, at `model.vision_tower`), runs in two stages, as
DeepSeek-OCR 2's (`nnterp.components.deepseek_ocr`). SAM's windowed ViT
(`sam_encoder`, no alias of its own) turns the image into a grid that its neck and two
stride-2 convolutions shrink 4x by side; that grid's rows are `patch_embeddings`. A
CLIP encoder (`vision_encoder`: CLIP's blocks, `vision.layers`, with no final norm)
takes those rows after a learned class row, adds a learned position grid (resampled
where the grid differs from it) and norms them (`pre_layrnorm`); `tower_output` is its
last block's stream, the class row then the patch rows. The tower returns each patch's
encoder row beside its SAM row (the class row dropped,
`[patches, encoder width + SAM width]`), and the projector (`projector`,
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
    UnlimitedOcrVisionModel,
)

from nnterp.components import EProperty, ImageScatter, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.deepseek_ocr import DeepseekOcrVision
from nnterp.components.vision import LLAVA_LAYOUT_RENAME, Patches, no_tower_run
from nnterp.families import unlimited_ocr_text

RENAME = {
    **unlimited_ocr_text.RENAME,
    **LLAVA_LAYOUT_RENAME,
    # The CLIP encoder's names, keyed relative to the tower; SAM's blocks share the norms' names.
    "vision_encoder.encoder.layers": "layers",
    "layer_norm1": "input_layernorm",
    "layer_norm2": "post_attention_layernorm",
    "out_proj": "o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}


class OcrVision(DeepseekOcrVision):
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
    **unlimited_ocr_text.ENVOYS,
    UnlimitedOcrVisionModel: OcrVision,
    UnlimitedOcrEncoderLayer: VisionLayer,
    UnlimitedOcrAttention: VisionAttention,
    UnlimitedOcrMLP: VisionMlp,
    UnlimitedOcrModel: ImageScatter,
}

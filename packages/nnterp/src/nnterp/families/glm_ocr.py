"""GLM-OCR (`GlmOcrForConditionalGeneration`): GLM-OCR's text model behind a packed ViT built like GLM-4V's.

The text stack sits under `model.language_model` and is served with GLM-OCR's text
classes (`nnterp.families.glm_ocr_text`). The ViT (`vision`, at `model.visual`,
`OcrVision`) is GLM-4V's packed tower without the learned position grid and the norm
after the patch convolution; each block's attention norms its queries and keys per
head (`q_norm`, `k_norm`) before the rotary embedding, calls the attention once per
image (`PER_IMAGE`), and its gated MLP is `intermediate_size` wide. The final norm
(`post_layernorm`) ends `tower_output`; a 2x2 convolution (`downsample`) then merges
the patches to the text width and the merger (`projector`, at `model.visual.merger`)
projects them, both inside the tower. `GlmOcrModel`'s forward scatters the projected
image into the token embeddings. The type has no causal-LM class: the default task
loads the wrapper with no processor.
"""

from transformers.models.glm_ocr.modeling_glm_ocr import (
    GlmOcrModel,
    GlmOcrVisionAttention,
    GlmOcrVisionBlock,
    GlmOcrVisionMlp,
    GlmOcrVisionModel,
)

from nnterp.components import ImageScatter, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import GLM_VISION_RENAME, GlmVision
from nnterp.families import glm_ocr_text

RENAME = {**glm_ocr_text.RENAME, **GLM_VISION_RENAME}


class OcrVision(GlmVision):
    """The GLM-OCR ViT: GLM-4V's tower with no position grid, and block MLPs `intermediate_size` wide.

    `tower_output` is the final norm's output, before the `downsample` convolution that
    merges each 2x2 group to the text width.
    """

    @property
    def intermediate_size(self) -> int:
        return self.tower_config.intermediate_size


ENVOYS = {
    **glm_ocr_text.ENVOYS,
    GlmOcrVisionModel: OcrVision,
    GlmOcrVisionBlock: VisionLayer,
    GlmOcrVisionAttention: QwenVisionAttention,
    GlmOcrVisionMlp: VisionMlp,
    GlmOcrModel: ImageScatter,
}

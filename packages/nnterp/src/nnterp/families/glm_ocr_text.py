"""GLM-OCR's text model (`GlmOcrTextModel`), served on the `GlmOcrForConditionalGeneration` wrapper.

`h = x + post_self_attn_layernorm(self_attn(input_layernorm(x)));
out = h + post_mlp_layernorm(mlp(post_attention_layernorm(h)))`.

GLM-4V's text block (`glm4v_text`), so GLM-4's sandwich of norms: each sublayer's
output passes its own post-norm before the add, and the contributions are read on
those norms. The MLP is GLM's fused `gate_up_proj` with `activation_fn` aliased
`act_fn`. The attention differs from GLM-4V's only in its query, key and value
projections, which carry no bias; the multimodal rotary embedding turns part of each
head's channels over temporal, height and width sections. The type has no causal-LM
class: the default task loads the wrapper with no processor.

The wrapper holds the text model under `model.language_model` and its ViT under
`model.visual` (`OcrVision`): GLM-4V's packed tower without the learned position grid
and the norm after the patch convolution; each block's attention norms its queries
and keys per head (`q_norm`, `k_norm`) before the rotary embedding, calls the
attention once per image (`PER_IMAGE`), and its gated MLP is `intermediate_size`
wide. The final norm (`post_layernorm`) ends `tower_output`; a 2x2 convolution
(`downsample`) then merges the patches to the text width and the merger (`projector`)
projects them, both inside the tower. `GlmOcrModel`'s forward scatters the projected
image into the token embeddings.
"""

from transformers.models.glm_ocr.modeling_glm_ocr import (
    GlmOcrModel,
    GlmOcrTextAttention,
    GlmOcrTextDecoderLayer,
    GlmOcrTextMLP,
    GlmOcrVisionAttention,
    GlmOcrVisionBlock,
    GlmOcrVisionMlp,
    GlmOcrVisionModel,
)

from nnterp.components import ImageScatter, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import GLM_VISION_RENAME, GlmVision
from nnterp.families import glm4

RENAME = {**glm4.RENAME, **GLM_VISION_RENAME}


class OcrVision(GlmVision):
    """The GLM-OCR ViT: GLM-4V's tower with no position grid, and block MLPs `intermediate_size` wide.

    `tower_output` is the final norm's output, before the `downsample` convolution that
    merges each 2x2 group to the text width.
    """

    @property
    def intermediate_size(self) -> int:
        return self.tower_config.intermediate_size


ENVOYS = {
    GlmOcrTextDecoderLayer: glm4.Layer,
    GlmOcrTextAttention: glm4.Attention,
    GlmOcrTextMLP: glm4.Mlp,
    GlmOcrVisionModel: OcrVision,
    GlmOcrVisionBlock: VisionLayer,
    GlmOcrVisionAttention: QwenVisionAttention,
    GlmOcrVisionMlp: VisionMlp,
    GlmOcrModel: ImageScatter,
}

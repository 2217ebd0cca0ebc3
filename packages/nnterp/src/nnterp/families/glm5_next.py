"""GLM-5.3-Flash (`Glm5NextForConditionalGeneration`): its hyper-connection hybrid behind a GLM-OCR-built ViT.

The text stack sits under `model.language_model` and is served with GLM-5.3-Flash's
text classes (`nnterp.families.glm5_next_text`). The ViT (`vision`, at `model.visual`,
`Glm5NextVision`) is GLM-OCR's packed tower (no position grid and no norm after the
patch convolution, per-head query and key norms, per-image attention, `PER_IMAGE`,
block MLPs `intermediate_size` wide, clamped at `swiglu_limit`) under an axial rotary
over each patch's row and column. The final norm (`post_layernorm`) ends
`tower_output`; a 2x2 convolution (`downsample`) then merges the patches to the text
width and the merger (`projector`, at `model.visual.merger`) projects them, both inside
the tower. `Glm5NextModel`'s forward scatters the projected image into the token
embeddings, before the text model copies them into every stream. The type has no
causal-LM class.
"""

from transformers.models.glm5_next.modeling_glm5_next import (
    Glm5NextModel,
    Glm5NextVisionAttention,
    Glm5NextVisionBlock,
    Glm5NextVisionMLP,
    Glm5NextVisionModel,
)

from nnterp.components import ImageScatter, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import GLM_VISION_RENAME, GlmVision
from nnterp.families import glm5_next_text

RENAME = {**glm5_next_text.RENAME, **GLM_VISION_RENAME}

#: The text family's sizes and hyper-connection lens: the root's `head_dim` is the values' width and `qk_head_dim`
#: the queries' and keys', and a `Streams` value collapses through the text model's `hc_head`.
head_dim = glm5_next_text.head_dim
qk_head_dim = glm5_next_text.qk_head_dim
collapse_streams = glm5_next_text.collapse_streams
project_on_vocab = glm5_next_text.project_on_vocab


class Glm5NextVision(GlmVision):
    """The GLM-5.3-Flash ViT: GLM-4V's tower with no position grid, and block MLPs `intermediate_size` wide.

    `tower_output` is the final norm's output, before the `downsample` convolution that
    merges each 2x2 group to the text width.
    """

    @property
    def intermediate_size(self) -> int:
        return self.tower_config.intermediate_size


ENVOYS = {
    **glm5_next_text.ENVOYS,
    Glm5NextVisionModel: Glm5NextVision,
    Glm5NextVisionBlock: VisionLayer,
    Glm5NextVisionAttention: QwenVisionAttention,
    Glm5NextVisionMLP: VisionMlp,
    Glm5NextModel: ImageScatter,
}

"""GLM-4V (`Glm4vForConditionalGeneration`): GLM-4V's text model behind the packed GLM-4V ViT, its merger as projector.

The text stack sits under `model.language_model` and is served with GLM-4V's text
classes (`nnterp.families.glm4v_text`). The ViT (`vision`, at `model.visual`,
`GlmVision`) packs every image's patches into one row, norms them (RMS) after the patch
convolution, adds a learned position grid resampled to each image (`embeddings`),
attends per image (`PER_IMAGE`), and runs gated-MLP blocks whose width is the tower's
`out_hidden_size`; its final norm (`post_layernorm`) ends `tower_output`. A 2x2
convolution (`downsample`) then merges the patches to the text width and the merger
(`projector`, at `model.visual.merger`) projects them, both inside the tower. The
wrapper scatters the projected image into the token embeddings in `Glm4vModel`. It
has no causal-LM class: the default task loads it with no processor.
"""

from transformers.models.glm4v.modeling_glm4v import (
    Glm4VisionMlp,
    Glm4vModel,
    Glm4vVisionAttention,
    Glm4vVisionBlock,
    Glm4vVisionModel,
)

from nnterp.components import ImageScatter, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import GLM_VISION_RENAME, GlmVision
from nnterp.families import glm4v_text

RENAME = {**glm4v_text.RENAME, **GLM_VISION_RENAME}

ENVOYS = {
    **glm4v_text.ENVOYS,
    Glm4vVisionModel: GlmVision,
    Glm4vVisionBlock: VisionLayer,
    Glm4vVisionAttention: QwenVisionAttention,
    Glm4VisionMlp: VisionMlp,
    Glm4vModel: ImageScatter,
}

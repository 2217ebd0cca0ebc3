"""GLM-4.6V (`Glm46VForConditionalGeneration`): GLM-4V's text model and packed ViT under a wrapper of its own.

The text stack sits under `model.language_model` and is served with GLM-4V's text
classes (`nnterp.families.glm4v_text`). The tower is GLM-4V's ViT (`vision`, at
`model.visual`, `GlmVision`), built from the same classes: packed patches, an RMS norm
after the patch convolution, a learned position grid resampled to each image
(`embeddings`), per-image attention (`PER_IMAGE`), gated-MLP blocks whose width is the
tower's `out_hidden_size`, and a final norm (`post_layernorm`) that ends
`tower_output`. A 2x2 convolution (`downsample`) then merges the patches to the text
width and the merger (`projector`, at `model.visual.merger`) projects them, both
inside the tower. The wrapper scatters the projected image into the token embeddings
in `Glm46VModel`. It has no causal-LM class: the default task loads it with no
processor. Glmga (`glmga`, `nnterp.families.glmga`) builds this wrapper under its own
config class and image processor.
"""

from transformers.models.glm4v.modeling_glm4v import (
    Glm4VisionMlp,
    Glm4vVisionAttention,
    Glm4vVisionBlock,
    Glm4vVisionModel,
)
from transformers.models.glm46v.modeling_glm46v import Glm46VModel

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
    Glm46VModel: ImageScatter,
}

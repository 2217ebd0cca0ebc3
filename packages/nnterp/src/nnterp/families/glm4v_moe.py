"""GLM-4.5V (`Glm4vMoeForConditionalGeneration`): GLM-4.5V's mixture text model behind GLM-4V's packed ViT.

The text stack sits under `model.language_model` and is served with GLM-4.5V's text
classes (`nnterp.families.glm4v_moe_text`). The tower is GLM-4V's ViT (`vision`, at
`model.visual`, `GlmVision`): packed patches, an RMS norm after the patch convolution,
a learned position grid resampled to each image (`embeddings`), per-image attention
(`PER_IMAGE`), gated-MLP blocks whose width is the tower's `out_hidden_size`, and a
final norm (`post_layernorm`) that ends `tower_output`. A 2x2 convolution
(`downsample`) then merges the patches to the text width and the merger (`projector`,
at `model.visual.merger`) projects them, both inside the tower. The wrapper scatters
the projected image into the token embeddings in `Glm4vMoeModel`. It has no causal-LM
class: the default task loads it with no processor.
"""

from transformers.models.glm4v_moe.modeling_glm4v_moe import (
    Glm4vMoeisionMlp,
    Glm4vMoeModel,
    Glm4vMoeVisionAttention,
    Glm4vMoeVisionBlock,
    Glm4vMoeVisionModel,
)

from nnterp.components import ImageScatter, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import GLM_VISION_RENAME, GlmVision
from nnterp.families import glm4v_moe_text

RENAME = {**glm4v_moe_text.RENAME, **GLM_VISION_RENAME}

ENVOYS = {
    **glm4v_moe_text.ENVOYS,
    Glm4vMoeVisionModel: GlmVision,
    Glm4vMoeVisionBlock: VisionLayer,
    Glm4vMoeVisionAttention: QwenVisionAttention,
    Glm4vMoeisionMlp: VisionMlp,
    Glm4vMoeModel: ImageScatter,
}

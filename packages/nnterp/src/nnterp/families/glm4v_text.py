"""GLM-4V's text model (`Glm4vTextModel`), served on the `Glm4vForConditionalGeneration` wrapper.

`h = x + post_self_attn_layernorm(self_attn(input_layernorm(x)));
out = h + post_mlp_layernorm(mlp(post_attention_layernorm(h)))`.

GLM-4's block (`glm4`): each sublayer's output passes its own post-norm before the
add, so the contributions are read on those norms, and the MLP is GLM's fused
`gate_up_proj` with `activation_fn` aliased `act_fn`. The attention has biased query,
key and value projections and rotates half of each head's channels under the
multimodal rotary embedding, its temporal, height and width sections over the rotary
channels. The wrapper holds the text model under `model.language_model` and the GLM-4V
ViT under `model.visual` (`GlmVision`): packed patches, an RMS norm after the patch
convolution, a learned position grid resampled to each image (`embeddings`),
per-image attention (`PER_IMAGE`), gated-MLP blocks whose width is the tower's
`out_hidden_size`, and a final norm (`post_layernorm`, the end of `tower_output`).
A 2x2 convolution (`downsample`) then merges the patches to the text width and the
merger (`projector`) projects them, both inside the tower. The wrapper has no
causal-LM class: the default task loads it with no processor. The family also serves
the `Glm46VForConditionalGeneration` wrapper (GLM-4.6V), built from the same text
model and tower, under both its own model type (`glm46v`) and Glmga's (`glmga`),
which differs only in its config class and image processor.
"""

from transformers.models.glm4v.modeling_glm4v import (
    Glm4VisionMlp,
    Glm4vModel,
    Glm4vTextAttention,
    Glm4vTextDecoderLayer,
    Glm4vTextMLP,
    Glm4vVisionAttention,
    Glm4vVisionBlock,
    Glm4vVisionModel,
)
from transformers.models.glm46v.modeling_glm46v import Glm46VModel

from nnterp.components import ImageScatter, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import GLM_VISION_RENAME, GlmVision
from nnterp.families import glm4

RENAME = {**glm4.RENAME, **GLM_VISION_RENAME}


ENVOYS = {
    Glm4vTextDecoderLayer: glm4.Layer,
    Glm4vTextAttention: glm4.Attention,
    Glm4vTextMLP: glm4.Mlp,
    Glm4vVisionModel: GlmVision,
    Glm4vVisionBlock: VisionLayer,
    Glm4vVisionAttention: QwenVisionAttention,
    Glm4VisionMlp: VisionMlp,
    Glm4vModel: ImageScatter,
    Glm46VModel: ImageScatter,
}

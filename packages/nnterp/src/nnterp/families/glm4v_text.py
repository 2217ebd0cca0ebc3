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

from typing import Any

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

from nnterp.components import EProperty, ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import (
    QWEN_TOWER_RENAME,
    WRAPPED_TEXT_RENAME,
    Patches,
    as_native,
    as_patches,
    no_tower_run,
)
from nnterp.families import glm4

RENAME = {
    **glm4.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN_TOWER_RENAME,
    "post_layernorm": "norm",
}


class GlmVision(QwenVision):
    """The GLM-4V ViT: the packed Qwen ViT's layout with a final norm, and block MLPs `out_hidden_size` wide.

    `tower_output` is the final norm's output, before the `downsample` convolution that
    merges each 2x2 group to the text width.
    """

    @property
    def intermediate_size(self) -> int:
        return self.tower_config.out_hidden_size

    @EProperty(
        "post_layernorm.output",
        description="The last block's stream after the tower's final norm, before any pooling or projection",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return as_patches(value)

    @tower_output.postprocess
    def tower_output(self, value: Any) -> Any:
        return as_native(self, value)


class Layer(glm4.Layer):
    """GLM-4V's text block; GLM-4's sandwich of norms, so that class holds."""


class Attention(glm4.Attention):
    """GLM-4V's text attention; GLM-4's, the contribution normed by `post_self_attn_layernorm`."""


class Mlp(glm4.Mlp):
    """GLM-4V's fused gated MLP; GLM-4's, the contribution normed by `post_mlp_layernorm`."""


ENVOYS = {
    Glm4vTextDecoderLayer: Layer,
    Glm4vTextAttention: Attention,
    Glm4vTextMLP: Mlp,
    Glm4vVisionModel: GlmVision,
    Glm4vVisionBlock: VisionLayer,
    Glm4vVisionAttention: QwenVisionAttention,
    Glm4VisionMlp: VisionMlp,
    Glm4vModel: ImageScatter,
    Glm46VModel: ImageScatter,
}

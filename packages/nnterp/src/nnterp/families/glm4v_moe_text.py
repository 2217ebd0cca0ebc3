"""GLM-4.5V's text model (`Glm4vMoeTextModel`), served on the `Glm4vMoeForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

GLM-4-MoE's block (`glm4_moe`): the first `first_k_dense_replace` blocks carry a
dense MLP, the others a mixture whose router (`gate`) scores with a sigmoid, adds a
correction bias for the choice only, keeps the best `topk_group` of `n_group` expert
groups, then the top `top_k` experts, renormalized and scaled by
`routed_scaling_factor`; the shared experts run on the mixture's input and the module
returns the sum. The attention has biased query, key and value projections and
rotates part of each head's channels under the multimodal rotary embedding. The
wrapper holds the text model under `model.language_model` and GLM-4V's ViT
(`GlmVision`) under `model.visual`, with its final norm, 2x2 downsample
convolution and merger (`projector`). The wrapper has no causal-LM class: the default
task loads it with no processor.
"""

from transformers.models.glm4v_moe.modeling_glm4v_moe import (
    Glm4vMoeisionMlp,
    Glm4vMoeModel,
    Glm4vMoeTextAttention,
    Glm4vMoeTextDecoderLayer,
    Glm4vMoeTextMLP,
    Glm4vMoeTextMoE,
    Glm4vMoeVisionAttention,
    Glm4vMoeVisionBlock,
    Glm4vMoeVisionModel,
)

from nnterp.components import ImageScatter, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import GLM_VISION_RENAME, GlmVision
from nnterp.families import glm4_moe

RENAME = {**glm4_moe.RENAME, **GLM_VISION_RENAME}


ENVOYS = {
    Glm4vMoeTextDecoderLayer: glm4_moe.Layer,
    Glm4vMoeTextAttention: glm4_moe.Attention,
    Glm4vMoeTextMLP: glm4_moe.Mlp,
    Glm4vMoeTextMoE: glm4_moe.Moe,
    Glm4vMoeVisionModel: GlmVision,
    Glm4vMoeVisionBlock: VisionLayer,
    Glm4vMoeVisionAttention: QwenVisionAttention,
    Glm4vMoeisionMlp: VisionMlp,
    Glm4vMoeModel: ImageScatter,
}

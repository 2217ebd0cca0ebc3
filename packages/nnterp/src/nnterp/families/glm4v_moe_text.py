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
(`glm4v_text.GlmVision`) under `model.visual`, with its final norm, 2x2 downsample
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
from nnterp.families import glm4_moe, glm4v_text

RENAME = {
    **{key: value for key, value in glm4v_text.RENAME.items() if key != "activation_fn"},
}


class Layer(glm4_moe.Layer):
    """GLM-4.5V's text block; GLM-4-MoE's Llama order, so that class holds."""


class Attention(glm4_moe.Attention):
    """GLM-4.5V's text attention; the shared eager interface, keys and values grouped, so the base holds."""


class Mlp(glm4_moe.Mlp):
    """The dense gated MLP, on the dense blocks and as the shared experts; the base holds."""


class Moe(glm4_moe.Moe):
    """GLM-4.5V's mixture; GLM-4-MoE's grouped sigmoid router, grouped experts and shared experts."""


ENVOYS = {
    Glm4vMoeTextDecoderLayer: Layer,
    Glm4vMoeTextAttention: Attention,
    Glm4vMoeTextMLP: Mlp,
    Glm4vMoeTextMoE: Moe,
    Glm4vMoeVisionModel: glm4v_text.GlmVision,
    Glm4vMoeVisionBlock: VisionLayer,
    Glm4vMoeVisionAttention: QwenVisionAttention,
    Glm4vMoeisionMlp: VisionMlp,
    Glm4vMoeModel: ImageScatter,
}

"""GLM-4.5V's text model (`Glm4vMoeTextModel`): GLM-4-MoE's block under a multimodal rotary embedding.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

GLM-4-MoE's block (`glm4_moe`): the first `first_k_dense_replace` blocks carry a
dense MLP, the others a mixture whose router (`gate`) scores with a sigmoid, adds a
correction bias for the choice only, keeps the best `topk_group` of `n_group` expert
groups, then the top `top_k` experts, renormalized and scaled by
`routed_scaling_factor`; the shared experts run on the mixture's input and the module
returns the sum. The attention has biased query, key and value projections and
rotates part of each head's channels under the multimodal rotary embedding.

The GLM-4.5V wrapper (`glm4v_moe`) is served by `nnterp.families.glm4v_moe`.
"""

from transformers.models.glm4v_moe.modeling_glm4v_moe import (
    Glm4vMoeTextAttention,
    Glm4vMoeTextDecoderLayer,
    Glm4vMoeTextMLP,
    Glm4vMoeTextMoE,
)

from nnterp.families import glm4_moe

RENAME = glm4_moe.RENAME

ENVOYS = {
    Glm4vMoeTextDecoderLayer: glm4_moe.Layer,
    Glm4vMoeTextAttention: glm4_moe.Attention,
    Glm4vMoeTextMLP: glm4_moe.Mlp,
    Glm4vMoeTextMoE: glm4_moe.Moe,
}

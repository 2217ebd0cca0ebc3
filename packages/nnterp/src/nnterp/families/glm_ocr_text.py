"""GLM-OCR's text model (`GlmOcrTextModel`): GLM-4V's text block with unbiased query, key and value projections.

`h = x + post_self_attn_layernorm(self_attn(input_layernorm(x)));
out = h + post_mlp_layernorm(mlp(post_attention_layernorm(h)))`.

GLM-4V's text block (`glm4v_text`), so GLM-4's sandwich of norms: each sublayer's
output passes its own post-norm before the add, and the contributions are read on
those norms. The MLP is GLM's fused `gate_up_proj` with `activation_fn` aliased
`act_fn`. The attention differs from GLM-4V's only in its query, key and value
projections, which carry no bias; the multimodal rotary embedding turns part of each
head's channels over temporal, height and width sections.

The GLM-OCR wrapper (`glm_ocr`) is served by `nnterp.families.glm_ocr`.
"""

from transformers.models.glm_ocr.modeling_glm_ocr import GlmOcrTextAttention, GlmOcrTextDecoderLayer, GlmOcrTextMLP

from nnterp.families import glm4

RENAME = glm4.RENAME

ENVOYS = {
    GlmOcrTextDecoderLayer: glm4.Layer,
    GlmOcrTextAttention: glm4.Attention,
    GlmOcrTextMLP: glm4.Mlp,
}

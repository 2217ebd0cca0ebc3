"""GLM-4V's text model (`Glm4vTextModel`): GLM-4's block under a multimodal rotary embedding.

`h = x + post_self_attn_layernorm(self_attn(input_layernorm(x)));
out = h + post_mlp_layernorm(mlp(post_attention_layernorm(h)))`.

GLM-4's block (`glm4`): each sublayer's output passes its own post-norm before the
add, so the contributions are read on those norms, and the MLP is GLM's fused
`gate_up_proj` with `activation_fn` aliased `act_fn`. The attention has biased query,
key and value projections and rotates half of each head's channels under the
multimodal rotary embedding, its temporal, height and width sections over the rotary
channels.

The GLM-4V wrapper (`glm4v`) is served by `nnterp.families.glm4v`, and the GLM-4.6V
wrapper by `nnterp.families.glm46v` under its own type (`glm46v`) and by
`nnterp.families.glmga` under Glmga's (`glmga`).
"""

from transformers.models.glm4v.modeling_glm4v import Glm4vTextAttention, Glm4vTextDecoderLayer, Glm4vTextMLP

from nnterp.families import glm4

RENAME = glm4.RENAME

ENVOYS = {
    Glm4vTextDecoderLayer: glm4.Layer,
    Glm4vTextAttention: glm4.Attention,
    Glm4vTextMLP: glm4.Mlp,
}

"""GLM-4 (`Glm4ForCausalLM`): GLM's block wrapped in a sandwich of norms.

`h = x + post_self_attn_layernorm(self_attn(input_layernorm(x)));
out = h + post_mlp_layernorm(mlp(post_attention_layernorm(h)))`.

Llama's names keep their roles (`post_attention_layernorm` feeds the MLP), and each
sublayer's output passes its own post-norm (`post_self_attn_layernorm`,
`post_mlp_layernorm`) before the add, so the contributions are read on those norms.
The rotary embedding turns only part of each head's channels. The MLP is GLM's:
one `gate_up_proj`, then `down_proj(up * activation_fn(gate))`, with `activation_fn`
aliased `act_fn`; no module outputs the up half alone.
"""

from transformers.models.glm4.modeling_glm4 import Glm4Attention, Glm4DecoderLayer, Glm4MLP

from nnterp.components import Attention, Layer, Mlp, normed_contribution

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "activation_fn": "act_fn",
}


class Attention(Attention):
    """GLM-4's attention; the shared eager interface, the contribution normed by `post_self_attn_layernorm`."""

    attention_output = normed_contribution("post_self_attn_layernorm", "attention")


class Mlp(Mlp):
    """GLM-4's fused gated MLP (GLM's); the contribution normed by `post_mlp_layernorm`."""

    mlp_output = normed_contribution("post_mlp_layernorm", "mlp")


ENVOYS = {Glm4DecoderLayer: Layer, Glm4Attention: Attention, Glm4MLP: Mlp}
